// Reference "Revisor" agent over HTTP+JSON (REST) and JSON-RPC, built only from
// the official @a2a-js/sdk: DefaultRequestHandler + InMemoryTaskStore + the
// express REST, JSON-RPC and agent-card handlers. The card lists HTTP+JSON
// first (at /rest), so a client that reads the card's order dials REST. The
// Revisor semantics are those of revisor-server.mjs (interop/README.md).
//
//   PORT           listen port on 127.0.0.1 (default 41252, 0 = pick a free one)
//   STEP_DELAY_MS  pause after each WORKING step (default 600)
//
// Prints exactly one line "listening <port>" on stdout once it accepts requests.

import http from 'node:http';
import express from 'express';
import { AGENT_CARD_PATH, AgentCard, Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';

const HOST = '127.0.0.1';
const PORT = Number(process.env.PORT ?? 41252);
const STEP_DELAY_MS = Number(process.env.STEP_DELAY_MS ?? 600);
const now = () => new Date().toISOString();

/** The Revisor statistics (words, characters, sentences, average length, top words). */
function textStats(text) {
  const trimmed = text.trim();
  const tokens = trimmed === '' ? [] : trimmed.split(/\s+/);
  const sentences = text.split(/[.!?\u2026]+/).filter((p) => p.trim() !== '').length;
  const total = tokens.reduce((sum, t) => sum + t.length, 0);
  const counts = new Map();
  for (const token of tokens) {
    const key = token.toLowerCase().replace(/[^\p{L}\p{Nd}-]/gu, '');
    if (key.length > 3) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const topWords = [...counts.entries()]
    .map(([word, count], index) => ({ word, count, index }))
    .sort((a, b) => b.count - a.count || a.index - b.index)
    .slice(0, 5)
    .map(({ word, count }) => ({ word, count }));
  return {
    characters: text.length,
    words: tokens.length,
    sentences,
    averageWordLength: tokens.length === 0 ? 0 : Math.round((total / tokens.length) * 100) / 100,
    topWords,
  };
}

const textOf = (message) =>
  (message?.parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('\n');

function status(taskId, contextId, state, text) {
  const event = TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status: { state, timestamp: now() } });
  if (text !== undefined) {
    event.status.message = Message.fromJSON({
      messageId: crypto.randomUUID(), role: 'ROLE_AGENT', taskId, contextId, parts: [{ text, mediaType: 'text/plain' }],
    });
  }
  return AgentEvent.statusUpdate(event);
}

class RevisorExecutor {
  runs = new Map();

  async execute({ taskId, contextId, task, userMessage }, bus) {
    if (task) {
      bus.publish(AgentEvent.task(task));
    } else {
      const fresh = Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() } });
      fresh.history = [userMessage];
      bus.publish(AgentEvent.task(fresh));
    }
    const run = { contextId, cancelled: false, finished: false, wake: undefined };
    this.runs.set(taskId, run);
    const text = textOf(userMessage);
    if (text === '') {
      bus.publish(status(taskId, contextId, 'TASK_STATE_INPUT_REQUIRED', 'Please send the text you want me to analyse (a text part).'));
      return;
    }
    for (const step of ['Counting words\u2026', 'Finding top words\u2026']) {
      if (run.cancelled) return;
      bus.publish(status(taskId, contextId, 'TASK_STATE_WORKING', step));
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, STEP_DELAY_MS);
        run.wake = () => { clearTimeout(timer); resolve(); };
      });
      if (run.cancelled) return;
    }
    const stats = textStats(text);
    bus.publish(AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON({
      taskId, contextId, lastChunk: true,
      artifact: {
        artifactId: 'text-stats', name: 'text-stats',
        parts: [
          { text: `Words: ${stats.words}, characters: ${stats.characters}, sentences: ${stats.sentences}.`, mediaType: 'text/plain' },
          { data: stats, mediaType: 'application/json' },
        ],
      },
    })));
    run.finished = true;
    bus.publish(status(taskId, contextId, 'TASK_STATE_COMPLETED'));
  }

  async cancelTask(taskId, bus) {
    const run = this.runs.get(taskId);
    if (!run || run.finished || run.cancelled) {
      bus.finished();
      return;
    }
    run.cancelled = true;
    run.wake?.();
    bus.publish(status(taskId, run.contextId, 'TASK_STATE_CANCELED', "Canceled at the client's request."));
  }
}

function buildCard(port) {
  return AgentCard.fromJSON({
    name: 'Revisor (JS reference, REST)',
    description: 'Counts words, characters and sentences of a text and lists its most frequent words.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `http://${HOST}:${port}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `http://${HOST}:${port}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [{ id: 'text_stats', name: 'Text statistics', description: 'Text statistics.', tags: ['text'] }],
  });
}

const server = http.createServer();
server.listen(PORT, HOST, () => {
  const port = server.address().port;
  const requestHandler = new DefaultRequestHandler(buildCard(port), new InMemoryTaskStore(), new RevisorExecutor());
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`.replace(/^\/+/, '/'), agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  server.on('request', app);
  process.stdout.write(`listening ${port}\n`);
});

function shutdown() {
  server.close();
  server.closeAllConnections();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
