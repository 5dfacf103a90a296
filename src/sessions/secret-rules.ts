/**
 * The secret rules of session digests, as data. Shapes follow the public rule sets of
 * gitleaks (cmd/generate/config/rules) and secretlint's recommended preset; the regexes are
 * our own. Each rule replaces what it matches with `[REDACTED:<label>]`, keeping the named
 * groups `pre` (a key name, a URL's scheme and user, a header) and `q` (a quote, re-added
 * after the marker) so the sentence still reads. Order matters: provider tokens first (the
 * most precise label wins), generic key=value and natural-language rules last. Every value
 * part refuses to start at `[REDACTED`, which keeps redaction idempotent.
 *
 * A maintained rule set would replace this table: @secretlint/secretlint-rule-preset-recommend
 * with @secretlint/core (13.0.7 when written) needs Node >= 22 (membank supports 20) and
 * its lintSource is async and reports ranges, so it would need an async redaction step.
 */
export interface SecretRule {
  id: string;
  /** Shown in the marker: `[REDACTED:<label>]`. */
  label: string;
  /** Global regex. */
  pattern: RegExp;
  /** Why the shape is a secret (and what it leaves alone). */
  why: string;
  /** Optional check of a match; false keeps the text (placeholders, plain words). */
  accept?: (value: string, match: RegExpExecArray) => boolean;
}

const NOT_REDACTED = String.raw`(?!\[REDACTED)`;
// A token ends where no token character follows (many tokens end in `-` or `_`, where \b fails).
const END = "(?![A-Za-z0-9_-])";

/** Words that follow "password is" in ordinary talk and are not the password. */
const NOT_A_PASSWORD = new Set(
  (
    "a an the in on at to for of not no too very so still now just also same different correct wrong incorrect " +
    "invalid expired missing empty required optional stored saved set changed reset rotated shared attached " +
    "weak strong long short fine ok okay good bad there here below above what that this it its your my our their his her " +
    "see ask check use being been case-sensitive hashed encrypted managed generated unknown forgotten lost fixed working"
  ).split(" "),
);

const isPlaceholder = (v: string): boolean =>
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|x{3,}|\.{3}|…|null|none|nil|undefined|true|false|changeme|redacted)$/i.test(
    v,
  );

/** The key=value rule's key words; a key containing one of them as a segment names a secret. */
const KEY_WORDS = [
  "[a-z0-9]{0,20}password",
  "[a-z0-9]{0,20}passwd",
  "passphrase",
  "pwd",
  "pass",
  "[a-z0-9]{0,20}secret",
  "[a-z0-9]{0,20}token",
  "api[_-]?key",
  "access[_-]?key",
  "private[_-]?key",
  "signing[_-]?key",
  "encryption[_-]?key",
  "master[_-]?key",
  "session[_-]?key",
  "account[_-]?key",
  "credentials?",
  "auth",
].join("|");

export const SECRET_RULES: readonly SecretRule[] = [
  {
    id: "private-key",
    label: "private-key",
    pattern:
      /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    why: "PEM, OpenSSH and PGP private key blocks; an unterminated block is redacted to the end of the message",
  },
  {
    id: "aws-access-key-id",
    label: "aws-key",
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g,
    why: "AWS access key ids have a fixed prefix and 16 upper-case characters",
  },
  {
    id: "github-token",
    label: "github-token",
    pattern: new RegExp(String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{22,255})${END}`, "g"),
    why: "GitHub fine-grained and prefixed tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)",
  },
  {
    id: "github-classic-token",
    label: "github-token",
    // 40 hex is also a full git SHA: only near a token word, and not right after "commit"/"sha".
    pattern:
      /(?<pre>(?:github|\bgh\b|token|\bpat\b|oauth)[^\n]{0,40}?[\s:=("'])(?<!(?:commit|sha1?|rev|revision|hash|merge|blob|tree|ref)[\s:=#]{1,3})[0-9a-f]{40}\b/gi,
    why: "classic GitHub tokens are 40 hex characters; a bare 40-hex string is a commit id, so a token word must be near",
  },
  {
    id: "gitlab-token",
    label: "gitlab-token",
    pattern: new RegExp(
      String.raw`\bgl(?:pat|dt|rt|ptt|soat|cbt|imt|ft|agent)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*${END}`,
      "g",
    ),
    why: "GitLab personal, deploy, runner, trigger and other prefixed tokens",
  },
  {
    id: "slack-token",
    label: "slack-token",
    pattern: new RegExp(
      String.raw`\b(?:xox[a-z]|xoxe(?:\.xox[a-z])?|xapp)-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+${END}|\bxox[a-z]-[A-Za-z0-9-]{10,}`,
      "g",
    ),
    why: "Slack bot, user, app-level (xapp-) and configuration tokens",
  },
  {
    id: "slack-webhook",
    label: "slack-webhook",
    pattern: /(?<pre>\bhttps?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9+/_-]{20,}/g,
    why: "a Slack incoming-webhook URL is itself the credential; the host is kept so the sentence reads",
  },
  {
    id: "discord-webhook",
    label: "discord-webhook",
    pattern: /(?<pre>\bhttps?:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/)\d+\/[A-Za-z0-9_-]{20,}/g,
    why: "a Discord webhook URL carries its token in the path",
  },
  {
    id: "stripe-key",
    label: "stripe-key",
    pattern: new RegExp(
      String.raw`\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9]{20,})${END}`,
      "g",
    ),
    why: "Stripe secret and restricted keys (sk_live_, rk_live_, test keys) and webhook secrets",
  },
  {
    id: "api-key",
    label: "api-key",
    pattern: /\bsk-[A-Za-z0-9_-]{16,}/g,
    why: "OpenAI (sk-, sk-proj-) and Anthropic (sk-ant-) keys",
  },
  {
    id: "huggingface-token",
    label: "huggingface-token",
    pattern: new RegExp(String.raw`\bhf_[A-Za-z0-9]{30,40}${END}`, "g"),
    why: "Hugging Face access tokens (hf_ and 34 letters/digits); hf_hub_download and the like have underscores",
  },
  {
    id: "npm-token",
    label: "npm-token",
    pattern: new RegExp(String.raw`\bnpm_[A-Za-z0-9]{36}${END}`, "g"),
    why: "npm access tokens",
  },
  {
    id: "google-api-key",
    label: "google-key",
    pattern: /\bAIza[0-9A-Za-z_-]{30,}/g,
    why: "Google API keys",
  },
  {
    id: "google-oauth",
    label: "google-oauth",
    pattern: new RegExp(
      String.raw`\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,})${END}`,
      "g",
    ),
    why: "Google OAuth access tokens (ya29.), client secrets (GOCSPX-) and refresh tokens (1//0)",
  },
  {
    id: "sendgrid-key",
    label: "sendgrid-key",
    pattern: new RegExp(String.raw`\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}${END}`, "g"),
    why: "SendGrid API keys: SG.<id>.<secret>",
  },
  {
    id: "telegram-bot-token",
    label: "telegram-token",
    pattern: new RegExp(String.raw`\b\d{6,12}:A[A-Za-z0-9_-]{34}${END}`, "g"),
    why: "Telegram bot tokens: the bot id, a colon and 35 characters starting with A",
  },
  {
    id: "discord-bot-token",
    label: "discord-token",
    pattern: new RegExp(String.raw`\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}${END}`, "g"),
    why: "Discord bot tokens: base64 user id, timestamp and HMAC joined by dots",
  },
  {
    id: "jwt",
    label: "jwt",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    why: "JSON Web Tokens (session and API tokens)",
  },
  {
    id: "azure-key",
    label: "azure-key",
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=)${NOT_REDACTED}[A-Za-z0-9+/%=]{16,}`,
      "g",
    ),
    why: "Azure storage and Service Bus connection-string keys and SAS signatures",
  },
  {
    id: "url-credentials",
    label: "secret",
    // The password runs to the last @ before the host, so a password containing @ is covered.
    pattern: new RegExp(
      String.raw`(?<pre>\b[a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/@'"<>]{0,200}:)${NOT_REDACTED}[^\s/'"<>]{1,300}(?<post>@)(?=[^\s@/'"<>]+)`,
      "gi",
    ),
    why: "user:password@host in any URL (databases, brokers, git remotes)",
  },
  {
    id: "authorization-header",
    label: "token",
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:(?:Basic|Bearer|Token|Bot|Digest|Negotiate|NTLM)\s+)?)${NOT_REDACTED}[A-Za-z0-9._~+/=:-]{8,}`,
      "gi",
    ),
    why: "HTTP Authorization headers of any scheme (Basic carries user:password in base64)",
  },
  {
    id: "bearer",
    label: "token",
    pattern: new RegExp(String.raw`(?<pre>\bBearer\s+)${NOT_REDACTED}[A-Za-z0-9._~+/=-]{8,}`, "gi"),
    why: "bearer tokens outside a header",
  },
  {
    id: "curl-user",
    label: "secret",
    pattern: new RegExp(String.raw`(?<pre>(?:^|\s)(?:-u|--user)\s+["']?[^\s:'"]+:)${NOT_REDACTED}[^\s'"]+`, "g"),
    why: "curl -u user:password",
  },
  {
    id: "secret-assignment",
    label: "secret",
    // Key segments are split by _ . -, so AWS_SECRET_ACCESS_KEY, DB_PASSWORD and client.secret all count
    // (a \b before "secret" fails after "_"); "max_tokens" and "passwords" do not.
    pattern: new RegExp(
      String.raw`(?<pre>(?<![A-Za-z0-9])(?<!\[REDACTED:[a-z-]{0,30})(?:[A-Za-z0-9]{1,40}[_.-]){0,6}(?:${KEY_WORDS})(?:[_.-][A-Za-z0-9]{1,40}){0,6}["'\]]?\s*(?:=>|:=|[:=])[ \t]*)(?<q>["'\x60]?)${NOT_REDACTED}(?<value>(?:(?<=["'\x60])[^"'\x60\n]{1,300}(?=["'\x60]))|[^\s,;'"\x60<>)\]}]+)\k<q>`,
      "gi",
    ),
    why: "key=value and key: value where the key names a password, secret, token or key (env vars, JSON, YAML, config)",
    accept: (value, m) => {
      if (isPlaceholder(value)) return false;
      const pre = m.groups?.pre ?? "";
      const key = pre.replace(/["'\]]?\s*(?:=>|:=|[:=])[ \t]*$/, "");
      // A token count (max_tokens: 4096, token_limit=8000) is not a token.
      if (/token/i.test(key) && /^\d{1,7}$/.test(value)) return false;
      // Prose "Secret: nobody knew" / "token: we rotate it": a plain word after a plain lowercase key and a colon.
      const quoted = (m.groups?.q ?? "") !== "";
      const envLike = /[_.-]/.test(key) || key === key.toUpperCase();
      if (!quoted && !envLike && /:\s*$/.test(pre)) {
        if (NOT_A_PASSWORD.has(value.toLowerCase())) return false;
        if (!/pass|pwd/i.test(key)) return /[^A-Za-z]/.test(value) && value.length >= 8;
      }
      return true;
    },
  },
  {
    id: "password-in-prose",
    label: "secret",
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:my|our|your|his|her|their|the|its|new|root|admin|wifi|wi-fi)\s+(?:[\w-]+\s+){0,3}?(?:password|passphrase|passcode|passwort|pw|pin)\s+(?:(?:for|to|of|on)\s+(?:(?!is\b|was\b)\S+\s+){1,4})?(?:is|was|=|:)\s+(?:(?:now|still|just|currently|set to|changed to)\s+)?[“‘]?)(?<q>["']?)${NOT_REDACTED}(?<value>[^\s"'“”‘’]+?)(?=[.,;!?)]*(?:\s|$)|["'”’])\k<q>`,
      "gi",
    ),
    why: "'my password is hunter2', 'the wifi password for the office is ...' in chat",
    accept: (value) => !NOT_A_PASSWORD.has(value.toLowerCase()) && !isPlaceholder(value),
  },
];
