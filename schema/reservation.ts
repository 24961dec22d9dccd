// The reservation's window on its own, without the purchase shapes (and the payment-hash rules they import), so a
// page that only says how long a buyer has to pay, such as the listing page's offer confirmation, stays light.

/** An unpaid reservation frees the listing after this many minutes. */
export const RESERVATION_MINUTES = 15;
