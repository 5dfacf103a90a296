// A stand-in for a local model server (OpenAI-compatible /v1/chat/completions, as LM Studio or
// vLLM serve it) so the e2e can run a real OpenClaw agent turn offline: it answers every request
// with one line that quotes the user's last words, streamed or not, and keeps the last request
// body in the file named by argv[2] (to see what OpenClaw sent the model). Prints its port.
import { writeFileSync } from "node:fs";
import http from "node:http";

const bodyFile = process.argv[2];

function reply(messages) {
  // The user's own words: the first line of the last user message that is not OpenClaw's internal
  // context block (OpenClaw appends a "Runtime: ..." line for the model).
  const users = messages.filter((m) => m.role === "user");
  const text = (m) =>
    typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join(" ");
  const said =
    users
      .map(text)
      .filter((t) => !t.includes("OPENCLAW_INTERNAL_CONTEXT"))
      .at(-1) ?? "";
  return `Noted: ${said
    .replace(/^\[[^\]]*\]\s*/, "")
    .split("\n")[0]
    .slice(0, 200)}`;
}

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    if (!req.url.endsWith("/chat/completions")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "local", object: "model" }] }));
      return;
    }
    if (bodyFile) writeFileSync(bodyFile, body);
    const request = JSON.parse(body);
    const content = reply(request.messages ?? []);
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const base = { id: "chatcmpl-e2e", created: 0, model: "local" };
    if (request.stream) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta, finish) =>
        `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }], ...(finish ? { usage } : {}) })}\n\n`;
      res.write(chunk({ role: "assistant", content }, null));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    const message = { role: "assistant", content };
    res.end(
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: "stop" }],
        usage,
      }),
    );
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(server.address().port);
});
