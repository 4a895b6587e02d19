// Reference "Revisor" agent: an A2A v1.0 JSON-RPC server built only from the
// official @a2a-js/sdk (DefaultRequestHandler + InMemoryTaskStore + the express
// JSON-RPC and agent-card handlers). It exists so the interop check script can be
// run against real SDK behaviour as well as against Legate.
//
//   PORT           listen port on 127.0.0.1 (default 41251, 0 = pick a free one)
//   STEP_DELAY_MS  pause after each WORKING step (default 600)
//   GRPC           "true": also serve the SDK's gRPC service (@a2a-js/sdk/server/grpc on
//                  @grpc/grpc-js) on a free port of 127.0.0.1, listed first in the card
//
// Prints exactly one line "listening <port>" on stdout once it accepts requests.
// Exits on SIGTERM / SIGINT.

import http from 'node:http';
import express from 'express';
import {
  AGENT_CARD_PATH,
  AgentCard,
  Message,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import * as grpc from '@grpc/grpc-js';
import { A2AService, UserBuilder as GrpcUserBuilder, grpcService } from '@a2a-js/sdk/server/grpc';

const HOST = '127.0.0.1';
const PORT = parsePort(process.env.PORT, 41251);
const STEP_DELAY_MS = parseNonNegativeInt(process.env.STEP_DELAY_MS, 600);
const GRPC = process.env.GRPC === 'true';

function parsePort(raw, fallback) {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new Error(`PORT must be an integer 0-65535, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function parseNonNegativeInt(raw, fallback) {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`STEP_DELAY_MS must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return n;
}

// ---------------------------------------------------------------------------
// Text statistics (the Revisor semantics)
// ---------------------------------------------------------------------------

/**
 * words: whitespace tokens (JS \s+) of the trimmed text; characters: UTF-16
 * length; sentences: non-blank pieces between runs of . ! ? and U+2026;
 * averageWordLength: mean token length rounded to 2 decimals; topWords: the 5
 * most frequent normalised tokens longer than 3 chars, ties in first-seen order.
 */
export function textStats(text) {
  const trimmed = text.trim();
  const tokens = trimmed === '' ? [] : trimmed.split(/\s+/);
  const sentences = text.split(/[.!?\u2026]+/).filter((piece) => piece.trim() !== '').length;
  const totalLength = tokens.reduce((sum, t) => sum + t.length, 0);
  const averageWordLength = tokens.length === 0 ? 0 : Math.round((totalLength / tokens.length) * 100) / 100;

  const counts = new Map(); // insertion order = first-seen order
  for (const token of tokens) {
    const key = token.toLowerCase().replace(/[^\p{L}\p{Nd}-]/gu, '');
    if (key.length > 3) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const topWords = [...counts.entries()]
    .map(([word, count], index) => ({ word, count, index }))
    .sort((a, b) => b.count - a.count || a.index - b.index)
    .slice(0, 5)
    .map(({ word, count }) => ({ word, count }));

  return { characters: text.length, words: tokens.length, sentences, averageWordLength, topWords };
}

/** Concatenated text of all text parts (newline-joined), or '' when there is none. */
function userText(message) {
  return (message?.parts ?? [])
    .filter((p) => p.content?.$case === 'text')
    .map((p) => p.content.value)
    .join('\n');
}

// ---------------------------------------------------------------------------
// Event builders (ProtoJSON in, SDK objects out, so every field gets its default)
// ---------------------------------------------------------------------------

const now = () => new Date().toISOString();

function agentMessage(taskId, contextId, text) {
  return Message.fromJSON({
    messageId: crypto.randomUUID(),
    role: 'ROLE_AGENT',
    taskId,
    contextId,
    parts: [{ text, mediaType: 'text/plain' }],
  });
}

function statusEvent(taskId, contextId, state, text) {
  const event = TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status: { state, timestamp: now() } });
  if (text !== undefined) event.status.message = agentMessage(taskId, contextId, text);
  return AgentEvent.statusUpdate(event);
}

// ---------------------------------------------------------------------------
// Agent executor
// ---------------------------------------------------------------------------

class RevisorExecutor {
  /** taskId -> { contextId, cancelled, finished, wake } for every task this process has seen */
  runs = new Map();

  constructor(stepDelayMs) {
    this.stepDelayMs = stepDelayMs;
  }

  async execute(requestContext, eventBus) {
    const { taskId, contextId, task: existingTask, userMessage } = requestContext;

    // Every execute() call must open with a Task (or Message) event.
    if (existingTask) {
      eventBus.publish(AgentEvent.task(existingTask));
    } else {
      const task = Task.fromJSON({
        id: taskId,
        contextId,
        status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
      });
      task.history = [userMessage];
      eventBus.publish(AgentEvent.task(task));
    }

    const run = { contextId, cancelled: false, finished: false, wake: undefined };
    this.runs.set(taskId, run);

    const text = userText(userMessage);
    if (text === '') {
      eventBus.publish(
        statusEvent(
          taskId,
          contextId,
          'TASK_STATE_INPUT_REQUIRED',
          'Please send the text you want me to analyse (a text part).',
        ),
      );
      return; // task stays open; a reply with the same taskId resumes it
    }

    const steps = ['Counting words\u2026', 'Finding top words\u2026'];
    for (const step of steps) {
      if (run.cancelled) return;
      eventBus.publish(statusEvent(taskId, contextId, 'TASK_STATE_WORKING', step));
      await this.pause(run);
      if (run.cancelled) return; // cancelTask already published CANCELED
    }

    const stats = textStats(text);
    eventBus.publish(
      AgentEvent.artifactUpdate(
        TaskArtifactUpdateEvent.fromJSON({
          taskId,
          contextId,
          lastChunk: true,
          artifact: {
            artifactId: 'text-stats',
            name: 'text-stats',
            parts: [
              {
                text: `Words: ${stats.words}, characters: ${stats.characters}, sentences: ${stats.sentences}.`,
                mediaType: 'text/plain',
              },
              { data: stats, mediaType: 'application/json' },
            ],
          },
        }),
      ),
    );
    run.finished = true;
    eventBus.publish(statusEvent(taskId, contextId, 'TASK_STATE_COMPLETED'));
  }

  pause(run) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.stepDelayMs);
      function done() {
        clearTimeout(timer);
        run.wake = undefined;
        resolve();
      }
      run.wake = done;
    });
  }

  async cancelTask(taskId, eventBus) {
    const run = this.runs.get(taskId);
    if (!run || run.finished || run.cancelled) {
      // Nothing of ours to cancel: let the handler re-read the store and answer.
      eventBus.finished();
      return;
    }
    run.cancelled = true;
    run.wake?.();
    eventBus.publish(statusEvent(taskId, run.contextId, 'TASK_STATE_CANCELED', 'Canceled at the client\'s request.'));
  }
}

// ---------------------------------------------------------------------------
// HTTP wiring: listen first (PORT=0), then build the card with the real port.
// ---------------------------------------------------------------------------

function buildCard(port, grpcPort) {
  const jsonRpc = { url: `http://${HOST}:${port}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
  // A gRPC interface URL is host:port (A2A §10); first, so a client choosing by the card's order dials it.
  const interfaces = grpcPort === undefined ? [jsonRpc]
    : [{ url: `${HOST}:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0' }, jsonRpc];
  return AgentCard.fromJSON({
    name: 'Revisor (JS reference)',
    description: 'Counts words, characters and sentences of a text and lists its most frequent words.',
    version: '1.0.0',
    supportedInterfaces: interfaces,
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'text_stats',
        name: 'Text statistics',
        description:
          'Word, character and sentence counts, average word length and the five most frequent words of a text.',
        tags: ['text', 'statistics'],
        examples: ['The quick brown fox. It jumps!'],
        inputModes: ['text/plain'],
        outputModes: ['text/plain', 'application/json'],
      },
    ],
  });
}

const server = http.createServer();
const grpcServer = GRPC ? new grpc.Server() : undefined;

function bindGrpc() {
  if (!grpcServer) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    grpcServer.bindAsync(`${HOST}:0`, grpc.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port));
  });
}

server.listen(PORT, HOST, async () => {
  const port = server.address().port;
  const grpcPort = await bindGrpc();
  const requestHandler = new DefaultRequestHandler(
    buildCard(port, grpcPort),
    new InMemoryTaskStore(),
    new RevisorExecutor(STEP_DELAY_MS),
  );
  if (grpcServer) {
    grpcServer.addService(A2AService, grpcService({ requestHandler, userBuilder: GrpcUserBuilder.noAuthentication }));
  }

  const app = express();
  app.use(`/${AGENT_CARD_PATH}`.replace(/^\/+/, '/'), agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  server.on('request', app);

  process.stdout.write(`listening ${port}\n`);
});

function shutdown(signal) {
  process.stderr.write(`revisor-server: ${signal}, shutting down\n`);
  // Nothing to flush (tasks live in memory): stop accepting, drop open
  // connections (SSE streams included) and exit.
  server.close();
  server.closeAllConnections();
  grpcServer?.forceShutdown();
  process.exit(0);
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
