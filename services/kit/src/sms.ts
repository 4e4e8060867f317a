// Sending SMS (issue 26, docs/adr/0070): one port, SmsSender, and one adapter for a Nigerian provider's HTTP
// API, Termii's. Locally and in tests the adapter talks to infra/sms-catcher, which speaks the same API and
// keeps the messages; that catcher is the only stand-in, everything in front of it is the real flow.
// The text of a message is never logged: it may hold a code.
import { Type } from '@sinclair/typebox';

export const SmsConfig = Type.Object({
  /** The provider's base URL; empty: no SMS is sent (the routes that need one answer 503 SMS_UNAVAILABLE). */
  SMS_API_URL: Type.String({ default: '' }),
  SMS_API_KEY: Type.String({ default: '' }),
  /** The sender name people see, registered with the provider: 3 to 11 letters or digits. */
  SMS_SENDER_ID: Type.String({ default: 'TuberMkt', pattern: '^[A-Za-z0-9 ]{3,11}$' }),
  /** How long one send may take before it counts as failed. */
  SMS_TIMEOUT_MS: Type.Integer({ default: 4_000, minimum: 100 }),
});
export type SmsConfig = typeof SmsConfig.static;

export interface SmsMessage {
  /** E.164 digits without the plus: 2348031234567. */
  to: string;
  text: string;
}

export interface SmsSender {
  /** The provider's name, for logs. */
  readonly provider: string;
  /** Resolves with the provider's id for the message once it has taken it; rejects with SmsFailed. */
  send(message: SmsMessage): Promise<{ id: string }>;
}

/** The provider did not take the message: `status` is its HTTP status (absent when it did not answer). */
export class SmsFailed extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SmsFailed';
  }
}

/**
 * Termii's "send message" endpoint: POST <base>/api/sms/send with the key in the JSON body. The `dnd` channel
 * is the one that reaches numbers on the Do-Not-Disturb register, which most Nigerian numbers are, and the one
 * Termii asks transactional messages (codes, alerts) to use.
 */
export class TermiiSender implements SmsSender {
  readonly provider = 'termii';
  constructor(private readonly config: Pick<SmsConfig, 'SMS_API_URL' | 'SMS_API_KEY' | 'SMS_SENDER_ID' | 'SMS_TIMEOUT_MS'>) {}

  async send(message: SmsMessage): Promise<{ id: string }> {
    const url = new URL('/api/sms/send', this.config.SMS_API_URL);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          api_key: this.config.SMS_API_KEY,
          to: message.to,
          from: this.config.SMS_SENDER_ID,
          sms: message.text,
          type: 'plain',
          channel: 'dnd',
        }),
        signal: AbortSignal.timeout(this.config.SMS_TIMEOUT_MS),
      });
    } catch (err) {
      throw new SmsFailed(`the SMS provider did not answer (${(err as Error).name}: ${(err as Error).message})`);
    }
    const body = (await response.json().catch(() => ({}))) as { message_id?: unknown; message?: unknown };
    if (!response.ok) {
      throw new SmsFailed(`the SMS provider refused the message: ${response.status} ${String(body.message ?? '').slice(0, 200)}`, response.status);
    }
    if (typeof body.message_id !== 'string' && typeof body.message_id !== 'number') {
      throw new SmsFailed('the SMS provider answered without a message id', response.status);
    }
    return { id: String(body.message_id) };
  }
}

/** The sender the configuration names, or undefined when SMS_API_URL is empty. */
export function smsSender(config: SmsConfig): SmsSender | undefined {
  if (!config.SMS_API_URL) return undefined;
  return new TermiiSender(config);
}

/** An SMS's cost in parts: 160 characters of the GSM alphabet, or 70 of anything else (UCS-2), per part. */
export function smsParts(text: string): { encoding: 'gsm' | 'ucs2'; parts: number } {
  // The GSM 03.38 basic set (the extension characters counted as two).
  const basic = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€]*$/;
  if (basic.test(text)) {
    const length = [...text].reduce((n, c) => n + ('^{}\\[~]|€'.includes(c) ? 2 : 1), 0);
    return { encoding: 'gsm', parts: length <= 160 ? 1 : Math.ceil(length / 153) };
  }
  const length = [...text].length;
  return { encoding: 'ucs2', parts: length <= 70 ? 1 : Math.ceil(length / 67) };
}
