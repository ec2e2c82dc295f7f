/**
 * The forms of an HTML page, as a browser reads them (enough for IdP login pages and the
 * auto-submitting HTTP-POST binding page): action, method and the fields with their values.
 */
export interface HtmlForm {
  action: string;
  method: string;
  fields: Record<string, string>;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g)) attributes[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  return attributes;
}

/** Every form of `html`, its action resolved against `pageUrl`. */
export function formsOf(html: string, pageUrl: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map((m) => {
    const form = attributesOf(m[1]!);
    const fields: Record<string, string> = {};
    for (const input of m[2]!.matchAll(/<(input|button)\b([^>]*)>/gi)) {
      const a = attributesOf(input[2]!);
      if (a.name && (input[1]!.toLowerCase() === 'input' || a.value !== undefined)) fields[a.name] = a.value ?? '';
    }
    return { action: new URL(form.action ?? pageUrl, pageUrl).href, method: (form.method ?? 'get').toLowerCase(), fields };
  });
}
