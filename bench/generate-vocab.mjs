// Vocabulary of the synthetic workspace generator (bench/generate.mjs): a fixed pool of
// 60 recurring entities and sentence templates. Changing anything here changes the corpus
// bytes, so the benchmarks in bench/README.md name the generator version they used.

export const PEOPLE = [
  "Mara",
  "Priya",
  "Jonas",
  "Zoë",
  "Henrik",
  "Noor",
  "Wei",
  "Ines",
  "Søren",
  "José",
  "Amara",
  "Luca",
  "Freya",
  "Kenji",
  "Olu",
  "Hana",
  "Mateo",
  "Ingrid",
  "Ravi",
  "Chloé",
  "Tomasz",
  "Aiko",
  "Emeka",
  "Sven",
  "Leila",
  "Yusuf",
  "Marta",
  "Dev",
  "Björn",
  "Camille",
];

export const PROJECTS = [
  "ledger-sync",
  "billing-api",
  "payments-gateway",
  "fraud-radar",
  "statement-pdf",
  "onboarding-v2",
  "data-lake",
  "mobile-app",
  "status-page",
  "ci-pipeline",
  "audit-log",
  "search-service",
  "invoice-ocr",
  "kyc-checks",
  "rate-limiter",
  "feature-flags",
  "cost-report",
  "The-Castle",
];

export const THINGS = [
  "Berlin-office",
  "Stockholm-office",
  "Lisbon-trip",
  "Garden",
  "Volvo",
  "Book-Club",
  "Marathon",
  "Piano",
  "Cabin",
  "School-Run",
  "Bakery",
  "Dentist",
];

/** Opinions that recur for years; their confidence drifts slowly (see confidenceOn). */
export const OPINIONS = [
  ["Mara", "Prefers async written status updates over live standup meetings."],
  ["Mara", "Wants design docs before any new service gets a repository."],
  ["Priya", "Thinks the reconciliation engine needs a cursor per batch."],
  ["Jonas", "Believes the next release can ship before the quarter ends."],
  ["Zoë", "Prefers lime plaster over gypsum for old stone walls."],
  ["Henrik", "Thinks the scaffolding can come down a month early."],
  ["Noor", "Prefers pairing over code review for tricky changes."],
  ["Wei", "Wants every schema migration rehearsed on a copy of production."],
  ["Ines", "Prefers one written quarterly plan over many slide decks."],
  ["Søren", "Thinks feature flags should expire after ninety days."],
  ["Luca", "Believes the mobile app should drop the legacy login flow."],
  ["Freya", "Prefers Postgres over a document store for the audit log."],
  ["Kenji", "Thinks on-call should rotate weekly, not daily."],
  ["Hana", "Wants invoice OCR accuracy above ninety-eight percent before launch."],
  ["Ravi", "Prefers small pull requests under two hundred lines."],
  ["Chloé", "Thinks the status page should show partial outages honestly."],
  ["Tomasz", "Believes the CI pipeline is the main drag on delivery speed."],
  ["Leila", "Prefers mornings for deep work and afternoons for meetings."],
  ["Björn", "Thinks the data lake costs more than it returns."],
  ["Camille", "Wants KYC checks to run asynchronously."],
];

export const TEAMS = ["payments", "platform", "risk", "mobile", "data", "growth", "infra"];
export const TECH = ["Postgres", "Kafka", "Redis", "Terraform", "Kubernetes", "gRPC", "S3", "ClickHouse", "Temporal"];
export const DOCS = ["design doc", "runbook", "post-mortem", "quarterly plan", "hiring rubric", "risk note", "RFC"];
export const CHANNELS = ["#payments-status", "#incidents", "#platform", "#random", "#releases", "#oncall"];
export const TICKET_PREFIXES = ["FJD", "PAY", "OPS", "WEB", "RISK"];
export const ENV_SUFFIXES = ["BATCH", "TIMEOUT_MS", "WORKERS", "RETRIES", "POOL_SIZE"];
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Error strings, with `{n}`/`{hex}`/`{proj}` slots, for exact-token search. */
export const ERRORS = [
  "SQLSTATE 40001: could not serialize access due to concurrent update",
  "ECONNRESET on upstream 10.0.{n}.{n}:5432",
  "TypeError: Cannot read properties of undefined (reading 'amount')",
  "OOMKilled (exit 137) in pod {proj}-worker-{hex}",
  "HTTP 503 from /v2/payments after 30s",
  "ERR_CURSOR_EXPIRED: ledger cursor {hex} expired before commit",
  "certificate has expired (CERT_HAS_EXPIRED) for api.{proj}.internal",
];

// Prose sentence templates. Slots: {P} person, {P2} another person, {J} project, {T} thing,
// {team}, {tech}, {doc}, {ch} channel, {tk} ticket, {sha} commit, {env} env assignment,
// {err} error string, {n} small number, {when} a future date expression, {since} a past one.
export const NOTES = [
  "{P} asked for a summary of what happened on {J} this week; I wrote it up in {ch}.",
  "Standup replaced by a written thread again; most people posted before ten.",
  "{P} and {P2} disagreed about the rollout plan for {J}; the decision is parked until {when}.",
  "Reviewed the {doc} for {J}. Main open question: whether {tech} is worth the extra operations work.",
  "{P} filed {tk} after the nightly job of {J} failed with `{err}`.",
  "Bisected the regression in {J} to commit {sha}; {P} is preparing a revert.",
  "Staging for {J} now runs with `{env}` while {tk} is open.",
  "1:1 between Mara and {P}: career goals, the {team} team's hiring plan, and the {doc}.",
  "{P} is out {when}; {P2} covers the {J} pager.",
  "Drafted the agenda for the {team} sync and linked {tk} and {tk2}.",
  "{T}: booked the next slot {when}.",
  "{P} shared load-test numbers for {J}: p95 {n}ms at {n2}k requests per minute.",
  "Cleaned up {n} stale branches in the {J} repository.",
  "Incident in {ch}: `{err}`. Mitigated in {n} minutes, follow-up is {tk}.",
  "{P} proposed moving {J} from {tech} to {tech2}; Mara wants a written comparison first.",
  "Sent Mara the weekly numbers: {n} deploys, {n2} incidents, {n3} tickets closed.",
  "{T}: small update, nothing urgent, noted for the weekend.",
  "{P} merged the fix for {tk} ({sha}); the dashboards look normal again.",
  "The {doc} for {J} got {n} comments; {P2} will answer them {when}.",
  "{P} has been covering the {J} pager {since}.",
  "Mara asked me to remind her about {T} {when}.",
];

export const DONE = [
  "Wrote the summary for {P} (sent at {hh}:{mm}).",
  "Updated the {doc} of {J}.",
  "Linked {tk} from the risk list.",
  "Prepared the notes for the {team} sync.",
  "Answered {n} questions in {ch}.",
  "Moved {tk} to review.",
  "Booked a room for the {J} retro.",
];

// Retain fact templates by kind letter. Each yields "<entities>: <text>".
export const FACTS = {
  W: [
    "@{P}: Moved to the {team} team {when}.",
    "@{J}: Release {ver} is planned for {date}.",
    "@{P}: On vacation {range}.",
    "@{J}: Uses {tech} for its job queue.",
    "@{J}: {tk} tracks the bug behind `{err}`.",
    "@{J}: Staging runs with {env}.",
    "@{P} @{J}: Owns the on-call rotation {when}.",
    "@{T}: Next appointment is on {date}.",
    "@{P}: Works from the @{T} {when}.",
    "@Mara: Has a {team} leads offsite {range}.",
    "@{P}: Has been on call for @{J} {since}.",
  ],
  B: [
    "@{J}: I reviewed @{P}'s change {sha} and left {n} comments.",
    "@{J}: I drafted the {doc} with @{P}.",
    "@{J}: I bisected {tk} to commit {sha}.",
    "I prepared the agenda for the {team} sync with @{P}.",
    "@{T}: I compared {n} offers and sent Mara a table.",
  ],
  S: [
    "Busy day; most of the work happened on @{J}.",
    "@{J}: {n} incidents this week, all minor.",
    "Quiet day; Mara was mostly in meetings.",
    "@{P}: Carried most of the @{J} work this week.",
  ],
};

/** Conversation snippets for session transcripts (user turn, assistant turn). */
export const CHAT = [
  ["What's the status of {J}?", "{J}: {tk} is in review, staging runs with {env}, next check {when}."],
  ["Remind me what {P} said about {tech}.", "{P} thinks {tech} is worth it for {J} if the on-call load stays low."],
  ["Can you draft a note to {P} about {tk}?", "Draft: Hi {P}, {tk} is blocking {J}; could we pair on it {when}?"],
  ["When is the {T} appointment?", "It is on {date}; I set a reminder the day before."],
  ["Summarise today's incidents.", "One incident: `{err}` on {J}, mitigated in {n} minutes, follow-up {tk}."],
  ["Add to memory: I prefer written updates.", "Noted: you prefer written async updates over meetings."],
  ["Which commit fixed {tk}?", "Commit {sha} by {P}, merged this morning."],
];
