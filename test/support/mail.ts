// Reading the mail the product sent, through Mailpit's API.
const mailApi = `http://127.0.0.1:${process.env.MAILPIT_HTTP_PORT ?? 8025}/api/v1`;

export interface Mail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: string[];
}

/** Waits for the newest mail to `to` whose subject matches, and returns it in full. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 20_000): Promise<Mail> {
  const started = Date.now();
  for (;;) {
    const search = (await (await fetch(`${mailApi}/search?query=${encodeURIComponent(`to:"${to}"`)}`)).json()) as {
      messages: { ID: string; Subject: string }[];
    };
    const found = search.messages.find((m) => subject.test(m.Subject));
    if (found) {
      const full = (await (await fetch(`${mailApi}/message/${found.ID}`)).json()) as {
        Subject: string;
        Text: string;
        HTML: string;
        To: { Address: string }[];
      };
      return { id: found.ID, subject: full.Subject, text: full.Text, html: full.HTML, to: full.To.map((t) => t.Address) };
    }
    if (Date.now() - started > timeoutMs) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function mailCount(to: string): Promise<number> {
  const search = (await (await fetch(`${mailApi}/search?query=${encodeURIComponent(`to:"${to}"`)}`)).json()) as { messages_count: number };
  return search.messages_count;
}

export const firstLink = (text: string, contains: string) =>
  text
    .match(/https?:\/\/[^\s"<>]+/g)
    ?.find((url) => url.includes(contains))
    ?.replaceAll('&amp;', '&');
