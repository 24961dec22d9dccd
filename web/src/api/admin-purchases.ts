// Admin actions on one purchase (/api/admin/purchases): closing a stuck purchase with a note
// (docs/payments.md#deadlines). The purchase page shows the button to admins; the answer says what became of the
// reported payment.
import { api, idParam, read } from "./http";

export const closePurchase = (id: string, note: string) => read(api.admin.purchases[":id"].close.$post({ ...idParam(id), json: { note } }));
