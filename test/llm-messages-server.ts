import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny HTTP server on 127.0.0.1 that speaks just enough of the Anthropic Messages API
 * for the real @anthropic-ai/sdk client: each POST /v1/messages gets the next scripted
 * reply. Tests point `llm.anthropic.baseUrl` at it.
 */

export type Reply =
  | { text: string }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Choose the reply from the request (e.g. by the task named in the system prompt). */
  | ((request: RecordedRequest) => Reply);

export interface RecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    max_tokens: number;
    system?: string;
    messages: { role: string; content: string }[];
  };
}

export interface MessagesServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replies still waiting; when empty, `fallback` answers (or a 599 error). */
  queue: Reply[];
  fallback?: Reply;
  close(): Promise<void>;
}

export function textMessage(model: string, text: string): unknown {
  return {
    id: "msg_test",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

export async function startMessagesServer(replies: Reply[] = []): Promise<MessagesServer> {
  const state: MessagesServer = {
    baseUrl: "",
    requests: [],
    queue: [...replies],
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        url: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"),
      };
      state.requests.push(recorded);
      let reply: Reply | undefined = state.queue.shift() ?? state.fallback;
      while (typeof reply === "function") reply = reply(recorded);
      if (!reply) reply = { status: 599, body: { type: "error", error: { type: "api_error", message: "no reply" } } };
      if ("text" in reply) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(textMessage(recorded.body.model, reply.text)));
        return;
      }
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { type: "error", error: { type: "api_error", message: "error" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return state;
}
