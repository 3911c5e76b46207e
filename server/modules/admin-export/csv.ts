/**
 * CSV as Excel reads it (RFC 4180): UTF-8 with a byte-order mark (without it Excel takes the
 * file as the system's code page and Chinese turns to noise), CRLF line ends, cells quoted when
 * they hold a quote, comma or line break. A text cell that starts with = + - @ (or a tab or
 * carriage return) gets a leading ' so a spreadsheet shows it instead of running it as a formula.
 */

export const CSV_BOM = "\uFEFF";

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "是" : "否";
  let text = typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/u.test(text)) text = `'${text}`;
  return /[",\r\n]/u.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(",")}\r\n`;

/** `Content-Disposition` for a download named `name` (RFC 6266, with RFC 5987's UTF-8 form beside an ASCII one). */
export function attachment(name: string, asciiName: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encoded}`;
}
