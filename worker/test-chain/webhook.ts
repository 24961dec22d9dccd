// A box of its own at the alert webhook's local receiver (scripts/test/webhook-global-setup.ts), so a test file
// reads only the alerts its own Worker sent, whatever other files running at the same time do with theirs.
import { env } from "cloudflare:test";

export type Received = {
  status: number;
  contentType: string;
  body: { text: string; incident: { kind: string; key: string; attempt: number }; digest?: { topic: string; count: number; keys: string[] } };
};

export function webhookBox(name: string) {
  const receiver = (env as unknown as { ALERT_RECEIVER_URL: string }).ALERT_RECEIVER_URL;
  return {
    /** The Worker's env with ALERT_WEBHOOK_URL pointing at this box. */
    env: { ...env, ALERT_WEBHOOK_URL: `${receiver}/hook/${name}` },
    /** The deliveries that carried the incident `key`, alone or in a digest (operations/alerts.ts); all without one. */
    async received(key?: string): Promise<Received[]> {
      const all = (await (await fetch(`${receiver}/received/${name}`)).json()) as Received[];
      return key ? all.filter((r) => r.body.incident.key === key || r.body.digest?.keys.includes(key)) : all;
    },
    clear: () => fetch(`${receiver}/received/${name}`, { method: "DELETE" }),
  };
}
