/**
 * Terminal escape sequences: CSI (colours, cursor moves), OSC/DCS/SOS/PM/APC strings
 * (window titles, hyperlinks) up to their terminator or the line's end, then any other
 * ESC sequence; 7-bit and 8-bit forms.
 */
const SEQUENCE = new RegExp(
  [
    String.raw`\x1b\[[0-?]*[ -/]*[@-~]?`,
    String.raw`\x9b[0-?]*[ -/]*[@-~]?`,
    String.raw`\x1b[\]PX^_][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?`,
    String.raw`[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?`,
    String.raw`\x1b[ -/]*[0-~]?`,
  ].join("|"),
  "g",
);
/** C0 controls but tab and line feed, DEL, C1 controls, bidirectional overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from the logs made safe to show in a terminal or a commit message: escape
 * sequences and control characters are removed; tabs and line breaks stay (`\r\n`
 * becomes `\n`). JSON output keeps the text as it is (JSON escapes control characters).
 */
export function displaySafe(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(SEQUENCE, "").replace(CONTROL, "");
}
