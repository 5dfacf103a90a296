import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ingestSessions } from "../src/sessions/ingest.js";
import { parseSessionLine } from "../src/sessions/parse.js";
import { redactSecrets } from "../src/sessions/redact.js";
import { SECRET_RULES } from "../src/sessions/secret-rules.js";
import { openWorkspace } from "../src/workspace/workspace.js";

// Fake secrets in the real formats (random, never issued), inside sentences as people paste them in chat.
const CASES: { shape: string; input: string; secret: string; want: string }[] = [
  {
    shape: "ENV_VAR-style name (AWS_SECRET_ACCESS_KEY=...)",
    input: "ok prod env is AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq81LmPX and region eu-west-1",
    secret: "wJalrXUtnFEMI",
    want: "ok prod env is AWS_SECRET_ACCESS_KEY=[REDACTED:secret] and region eu-west-1",
  },
  {
    shape: "PGP private key block",
    input:
      "here's my backup key, keep it safe:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGWb3kEBCADn0s1Xq9vJ7c2T\nhF8kL2mN4pQ6rS8tU0vW2xY4zA6bC8dE0fG2hI4jK6\n=Xq7z\n-----END PGP PRIVATE KEY BLOCK-----\nthx",
    secret: "lQOYBGWb3kEB",
    want: "here's my backup key, keep it safe:\n[REDACTED:private-key]\nthx",
  },
  {
    shape: "URL password containing @",
    input: "migration fails against postgres://ledger_app:p@ss@w0rd!@db.internal:5432/ledger, any idea?",
    secret: "w0rd!",
    want: "migration fails against postgres://ledger_app:[REDACTED:secret]@db.internal:5432/ledger, any idea?",
  },
  {
    shape: "Authorization: Basic",
    input: "curl still gets 401 with -H 'Authorization: Basic bWFyYTp3aW50ZXItTGVkZ2VyLTIwMjY=' hmm",
    secret: "bWFyYTp3aW50",
    want: "curl still gets 401 with -H 'Authorization: Basic [REDACTED:token]' hmm",
  },
  {
    shape: "Slack app-level token xapp-",
    input:
      "socket mode wants the app token: xapp-1-A05IA7IPWJ1-5829301746502-d0bbab63455d1d3fd64c0ccadc927c51ee3e41607d1f8d1b6ec5e6dc1cc76d61",
    secret: "5829301746502-d0bbab",
    want: "socket mode wants the app token: [REDACTED:slack-token]",
  },
  {
    shape: "Slack webhook",
    input: "alerts go to https://hooks.slack.com/services/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 for now",
    secret: "SGadTZFOlpUhbAS7J3nDEcA1",
    want: "alerts go to https://hooks.slack.com/services/[REDACTED:slack-webhook] for now",
  },
  {
    shape: "classic 40-hex GitHub token",
    input: "my old github token was b6b47f611ba59653752d1ea20493d982fb10aa4f, can you revoke it",
    secret: "b6b47f611ba5",
    want: "my old github token was [REDACTED:github-token], can you revoke it",
  },
  {
    shape: "GitHub ghp_",
    input: "use ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf for the CI bot",
    secret: "qsR6RZ24lPoQ",
    want: "use [REDACTED:github-token] for the CI bot",
  },
  {
    shape: "GitHub github_pat_",
    input:
      "new fine-grained one: 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 (expires in 30d)",
    secret: "RUCIlsmlHwqx",
    want: "new fine-grained one: [REDACTED:github-token] (expires in 30d)",
  },
  {
    shape: "Stripe sk_live_",
    input: "Stripe dashboard gave me sk_live_51JIH0EoQnsZcyGT6kVjqBR02nqBLpwX — is that the right one?",
    secret: "JIH0EoQnsZcy",
    want: "Stripe dashboard gave me [REDACTED:stripe-key] — is that the right one?",
  },
  {
    shape: "Hugging Face hf_",
    input: "HF_TOKEN is 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, the model is gated",
    secret: "pLsBnPwBcuzD",
    want: "HF_TOKEN is [REDACTED:huggingface-token], the model is gated",
  },
  {
    shape: "GitLab glpat-",
    input: "runner registration uses glpat-hx0knttMyscwigxFCL4L.",
    secret: "hx0knttMyscw",
    want: "runner registration uses [REDACTED:gitlab-token].",
  },
  {
    shape: "npm npm_",
    input: "//registry.npmjs.org/:_authToken=npm_BcwIsi9Zduk54IVi5a5p63RjfE7xewqZ0ndT in my .npmrc",
    secret: "BcwIsi9Zduk5",
    want: "//registry.npmjs.org/:_authToken=[REDACTED:npm-token] in my .npmrc",
  },
  {
    shape: "Google OAuth ya29.",
    input:
      "access token from the playground: ya29.a0EE4yYggorVYMtMHlVgdvbnIlQ2uLfomNZX8XItt5MadHJQCFV1u90Ht77yW8 expires in 1h",
    secret: "EE4yYggorVYM",
    want: "access token from the playground: [REDACTED:google-oauth] expires in 1h",
  },
  {
    shape: "SendGrid SG.",
    input: "SENDGRID key 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 works again",
    secret: "GC_cmFOb5RCg",
    want: "SENDGRID key [REDACTED:sendgrid-key] works again",
  },
  {
    shape: "Telegram bot token",
    input: "BotFather said: Use this token to access the HTTP API: 7381924056:AApAPWj91Md5X09hkGBasPMA3LbAloqiXBO",
    secret: "AApAPWj91Md5",
    want: "BotFather said: Use this token to access the HTTP API: [REDACTED:telegram-token]",
  },
  {
    shape: "Discord bot token",
    input: "discord bot login with MTE4NTU3NjQ1MjM0NTY3ODkwMQ.kbkSld.doBK4lQXTASfZF2GjhdwNdH0HXYVlfTXBtAtpq fails",
    secret: "doBK4lQXTASf",
    want: "discord bot login with [REDACTED:discord-token] fails",
  },
  {
    shape: "Azure AccountKey=",
    input:
      "conn string: DefaultEndpointsProtocol=https;AccountName=ledgerprod;AccountKey=sZLTJA6srVTng1Pfkd2h9WqjZoNtggFCMgcT5KIAiTEoEv1xhaT4FfSgXZ20rCaA==;EndpointSuffix=core.windows.net",
    secret: "sZLTJA6srVTn",
    want: "conn string: DefaultEndpointsProtocol=https;AccountName=ledgerprod;AccountKey=[REDACTED:azure-key];EndpointSuffix=core.windows.net",
  },
  {
    shape: "YAML DB_PASSWORD: 'x'",
    input: "compose file has\n  DB_USER: ledger\n  DB_PASSWORD: 'Tr0ub4dor&3'\nshould I move it to secrets?",
    secret: "Tr0ub4dor",
    want: "compose file has\n  DB_USER: ledger\n  DB_PASSWORD: '[REDACTED:secret]'\nshould I move it to secrets?",
  },
  {
    shape: "natural language 'my password is x'",
    input: "fwiw my password is correcthorse42, don't put it anywhere",
    secret: "correcthorse42",
    want: "fwiw my password is [REDACTED:secret], don't put it anywhere",
  },
  {
    shape: "natural language 'the wifi password for ... is x'",
    input: "The wifi password for the Lisbon flat is “azulejo-77”.",
    secret: "azulejo-77",
    want: "The wifi password for the Lisbon flat is “[REDACTED:secret]”.",
  },
  {
    shape: "zero-width character inside a key",
    input: "copied from Slack: sk_live_51JIH0EoQnsZc\u200byGT6kVjqBR02nqBLpwX",
    secret: "kVjqBR02",
    want: "copied from Slack: [REDACTED:stripe-key]",
  },
];

describe("secret redaction: every shape of issue 13 item 16", () => {
  for (const c of CASES) {
    it(c.shape, () => {
      const r = redactSecrets(c.input);
      expect(r.text).toBe(c.want);
      expect(r.text).not.toContain(c.secret);
      expect(r.count).toBeGreaterThan(0);
      expect(redactSecrets(r.text)).toEqual({ text: r.text, count: 0 });
    });
  }

  it("a key split across two content parts of one message is joined before redaction", () => {
    const ctx = { source: "s.jsonl", sessionId: "s", displayPath: "s.jsonl", firstLine: 1 };
    const line = (parts: string[]) =>
      JSON.stringify({
        type: "message",
        timestamp: "2026-03-04T10:00:00Z",
        message: { role: "assistant", content: parts.map((text) => ({ type: "text", text })) },
      });
    const splits = [
      ["Here is the key you asked for: sk_live_51JIH0EoQnsZcyGT", "6kVjqBR02nqBLpwX — rotate it after the demo."],
      ["Set AWS_SECRET_ACCESS_KEY=", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq81LmPX in the runner."],
      ["token: ghp_qsR6RZ24lPoQj3oPU", "lieI2nVsbBi1RMar1jf"],
    ];
    for (const [a, b] of splits) {
      const out = parseSessionLine(line([a as string, b as string]), 1, ctx);
      if (out.kind !== "message") throw new Error("expected a message");
      const red = redactSecrets(out.message.text).text;
      expect(red).toContain("[REDACTED:");
      expect(red).not.toMatch(/6kVjqBR02|wJalrXUtn|lieI2nVsbB|qsR6RZ24/);
    }
    // Ordinary parts stay separate paragraphs.
    const plain = parseSessionLine(line(["First I checked the logs.", "Then I restarted the worker."]), 1, ctx);
    expect(plain.kind === "message" && plain.message.text).toBe(
      "First I checked the logs.\n\nThen I restarted the worker.",
    );
  });

  it("leaves ordinary text alone: commit ids, UUIDs, plain URLs, the word password, token counts", () => {
    const keep = [
      "fixed in commit 3f2a9c1, see PR #482",
      "the token refresh fix is commit 9fceb02d0ae598e95dc970b74767f19372d61af8 on main",
      "session 4b0c2d7e-1f3a-4c5d-8e9f-0a1b2c3d4e5f crashed at 03:12",
      "docs at https://github.com/openclaw/openclaw/issues/1234 and https://example.com:8080/path?q=1#top",
      "I forgot my password again, where is the password manager?",
      "the password is stored in 1Password under 'ledger prod'",
      "Password: see the vault",
      "passwords: rotate them every 90 days",
      "set max_tokens: 4096 and token_limit=8000, temperature 0.2",
      "Secret: nobody knew about the party",
      "the Authorization header was missing on the retry",
      "HF_HOME=/data/hf and hf_hub_download works now",
      "the API key is in DB_PASSWORD_FILE, read it from there",
      "Basic authentication is off; Bearer tokens only",
      "the token budget is 8k per turn",
      "👩‍💻 pairing with Priya 🧑‍🤝‍🧑 today",
      "DB_PASSWORD=$DB_PASSWORD comes from the environment",
      "password = <your password here>",
      "user@example.com wrote at 10:30: deploy is green",
    ];
    for (const text of keep) expect(redactSecrets(text), text).toEqual({ text, count: 0 });
  });

  it("the rule table is data: unique ids, a label and a reason each, global patterns", () => {
    const ids = SECRET_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of SECRET_RULES) {
      expect(r.pattern.flags).toContain("g");
      expect(r.label).toMatch(/^[a-z-]+$/);
      expect(r.why.length).toBeGreaterThan(10);
    }
  });

  it("is idempotent and leaves no token of a known shape behind, whatever surrounds it (property)", () => {
    const an = (n: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${n}}$`));
    const token = fc.oneof(
      an(36).map((s) => `ghp_${s}`),
      an(24).map((s) => `sk_live_${s}`),
      fc.stringMatching(/^[A-Za-z]{34}$/).map((s) => `hf_${s}`),
      an(20).map((s) => `glpat-${s}`),
      an(36).map((s) => `npm_${s}`),
      an(40).map((s) => `ya29.${s}`),
      fc.tuple(an(22), an(43)).map(([a, b]) => `SG.${a}.${b}`),
      an(33).map((s) => `123456789:AA${s}`),
      fc.tuple(an(12), an(50)).map(([a, b]) => `xapp-1-${a}-1234567890-${b}`),
      an(30).map((s) => `AWS_SECRET_ACCESS_KEY=${s}`),
      an(12).map((s) => `DB_PASSWORD: '${s}'`),
    );
    const before = fc.constantFrom(" ", "\n", "(", ": ", "the key is ", "ok\u200b ");
    const after = fc.constantFrom(" ", "\n", ")", ", ", ". ", "\u200b ");
    const prose = fc.constantFrom("ok", "see the vault", "commit 3f2a9c1", "👩‍💻", "password");
    fc.assert(
      // Tokens are always delimited by something in real text (two tokens run together are one odd word).
      fc.property(
        fc.array(
          fc.oneof(
            fc.tuple(before, token, after).map((t) => t.join("")),
            prose,
          ),
          { maxLength: 8 },
        ),
        (items) => {
          const once = redactSecrets(items.join(" "));
          expect(redactSecrets(once.text)).toEqual({ text: once.text, count: 0 });
          expect(once.text).not.toMatch(
            /ghp_[A-Za-z0-9]{8}|sk_live_[A-Za-z0-9]{8}|hf_[A-Za-z]{8}|glpat-[A-Za-z0-9]{8}|npm_[A-Za-z0-9]{8}|ya29\.[A-Za-z0-9]{8}|SG\.[A-Za-z0-9]{8}|:AA[A-Za-z0-9]{8}|xapp-1-[A-Za-z0-9]{8}|KEY=[A-Za-z0-9]|PASSWORD: '[A-Za-z0-9]/,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("end to end: no shape above reaches the day's digest, and the report counts them", async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), "membank-redact-"));
    try {
      await mkdir(path.join(tmp, "agents/main/sessions"), { recursive: true });
      await mkdir(path.join(tmp, "ws/memory"), { recursive: true });
      await writeFile(
        path.join(tmp, "ws/membank.config.json"),
        JSON.stringify({ sessions: { dir: "../agents", tz: "UTC" } }),
      );
      const t0 = Date.parse("2026-03-04T09:00:00Z");
      const lines = CASES.map((c, i) =>
        JSON.stringify({
          type: "message",
          timestamp: new Date(t0 + i * 60_000).toISOString(),
          message: { role: i % 2 ? "assistant" : "user", content: c.input },
        }),
      );
      lines.push(
        JSON.stringify({
          type: "message",
          timestamp: new Date(t0 + 3600_000).toISOString(),
          message: {
            role: "assistant",
            content: [
              { type: "text", text: "Saved. The key is sk_live_51JIH0EoQnsZcyGT" },
              { type: "text", text: "6kVjqBR02nqBLpwX and it is in the vault now." },
            ],
          },
        }),
      );
      await writeFile(path.join(tmp, "agents/main/sessions/chat.jsonl"), `${lines.join("\n")}\n`);
      const ws = await openWorkspace(path.join(tmp, "ws"));
      const r = await ingestSessions(ws, { now: new Date("2026-03-06T12:00:00Z") });
      expect(r.messages).toBe(CASES.length + 1);
      expect(r.redactions).toBeGreaterThanOrEqual(CASES.length + 1);
      const digest = await readFile(path.join(tmp, "ws/memory/2026-03-04-sessions.md"), "utf8");
      for (const c of CASES) expect(digest, c.shape).not.toContain(c.secret);
      expect(digest).not.toContain("6kVjqBR02");
      expect(digest).toContain("> Saved. The key is [REDACTED:stripe-key] and it is in the vault now.");
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
