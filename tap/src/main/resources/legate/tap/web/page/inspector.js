// legate tap's inspector: builds exchanges, tasks and contexts from the tap's event lines (the same
// lines as `legate tap --log`), live over SSE from /events. Every value from the wire is put on the
// page as text (textContent), never as HTML: the traffic cannot script the page.
'use strict';

// The newest rows only: a redraw lays the whole table out again, so its cost grows with the rows listed.
const MAX_ROWS = 200;
// The page keeps about what the tap keeps (its history holds 50,000 events); older exchanges, tasks and
// contexts are let go, so a page left open under load neither grows without end nor slows down.
const MAX_KEPT = 25000;
// Live traffic redraws at most this often, and never spends more than a fiftieth of the time drawing
// (REDRAW_SHARE); a click or a filter redraws at the next frame. Nothing is drawn while nothing changes.
// Measured with bench workload 8: redrawing on every animation frame took Chromium most of a core
// under load, which on two cores it took from the tap and the agent.
const REDRAW_MS = 250;
const REDRAW_SHARE = 0.02;

const model = {
  exchanges: new Map(), tasks: new Map(), contexts: new Map(), problems: [], letGo: 0,
};
const ui = { view: 'exchanges', task: null, context: null, exchange: null, importing: false, dirty: false, urgent: false,
  nextAt: 0, timer: null, frame: false, changed: new Set(), added: [] };
// The exchange list as drawn: a row per listed exchange, so a redraw under load touches only the rows that changed.
const list = { rows: new Map(), key: null, rebuild: true, listed: 0, unlisted: 0 };

function reset() {
  model.exchanges.clear(); model.tasks.clear(); model.contexts.clear(); model.problems = []; model.letGo = 0;
  ui.task = null; ui.context = null; ui.exchange = null; arrivals.clear();
  ui.changed.clear(); ui.added = []; list.rebuild = true;
}

// The keys of each kept map in the order they came, oldest first from `head`. Not map.keys().next():
// after many deletions V8 walks past every deleted entry to find the first live one, which the
// profile of a page under load showed taking more time than parsing the events.
const arrivals = new Map();

function keep(map, key, onLetGo) {
  let a = arrivals.get(map);
  if (!a) { a = { keys: [], head: 0 }; arrivals.set(map, a); }
  a.keys.push(key);
  while (map.size > MAX_KEPT && a.head < a.keys.length) {
    const oldest = a.keys[a.head++];
    if (!map.has(oldest)) continue;
    if (onLetGo) onLetGo(map.get(oldest));
    map.delete(oldest);
  }
  if (a.head > MAX_KEPT) { a.keys = a.keys.slice(a.head); a.head = 0; }
}

function parse(text) {
  if (typeof text !== 'string' || text === '') return undefined;
  try { return JSON.parse(text); } catch (e) { return undefined; }
}

// ---- the model: one event line at a time -------------------------------------------------------

function apply(line) {
  const n = line.exchange;
  let x = model.exchanges.get(n);
  if (!x) {
    x = { n, at: line.at, method: '', target: '', rpc: '', rpcId: undefined, reqHeaders: {}, reqBody: '', status: null,
      resHeaders: {}, resBody: '', frames: [], stream: false, open: false, elapsedMs: null, bytes: null, outcome: null,
      refused: null, flags: [], taskIds: new Set(), contextIds: new Set(), protocol: 'HTTP/1.1', headersKept: false };
    model.exchanges.set(n, x);
    ui.added.push(x);
    keep(model.exchanges, n, old => {
      model.letGo++;
      const r = list.rows.get(old.n);
      if (r) { r.remove(); list.rows.delete(old.n); list.listed--; } else list.unlisted--;
    });
  }
  ui.changed.add(n);
  if (ui.added.length > MAX_KEPT) {
    // More than the page keeps (a hidden tab draws nothing): the next redraw builds the list afresh instead.
    list.rebuild = true; ui.added = []; ui.changed.clear();
  }
  switch (line.event) {
    case 'request': {
      x.at = line.at; x.method = line.method; x.target = line.target; x.protocol = line.protocol || 'HTTP/1.1';
      // The live feed leaves headers out (the raw view fetches them); an imported file has them.
      x.reqHeaders = line.headers || {}; x.headersKept = 'headers' in line; x.reqBody = line.body || (line.bodyBase64 ? '(binary body)' : '');
      const body = parse(x.reqBody);
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        x.rpc = typeof body.method === 'string' ? body.method : '';
        x.rpcId = body.id;
        // JSON-RPC carries the request in params; HTTP+JSON (A2A §11) sends the request message as the body.
        const p = body.params || (x.rpc ? {} : body);
        const m = p.message || {};
        // The ids a request names are kept for the filters; a task is listed once an answer shows it.
        if (m.taskId) x.taskIds.add(m.taskId);
        if (m.contextId) x.contextIds.add(m.contextId);
        if (typeof p.id === 'string') x.taskIds.add(p.id);
        if (m.parts) x.said = partsText(m.parts);
      }
      break;
    }
    case 'response':
      x.status = line.status; x.resHeaders = line.headers || {}; if (!line.headers) x.headersKept = x.headersAsked = false; x.resBody = line.body || '';
      x.elapsedMs = line.elapsedMs; x.bytes = line.bodyBytes; x.outcome = line.outcome;
      observeAnswer(x, parse(x.resBody), line.at);
      break;
    case 'stream-opened':
      x.status = line.status; x.resHeaders = line.headers || {}; if (!line.headers) x.headersKept = x.headersAsked = false; x.stream = true; x.open = true;
      break;
    case 'frame': {
      const f = { at: line.at, index: line.index, type: line.type, id: line.id, data: line.data };
      x.frames.push(f);
      observeAnswer(x, parse(line.data), line.at, f);
      break;
    }
    case 'stream-closed':
      x.open = false; x.elapsedMs = line.elapsedMs; x.bytes = line.bodyBytes; x.outcome = line.outcome;
      break;
    case 'refused':
      x.status = line.status; x.refused = line.reason;
      break;
    case 'flagged': {
      const p = { exchange: n, at: line.at, problem: line.problem, summary: line.summary, detail: line.detail };
      x.flags.push(p); model.problems.push(p);
      break;
    }
  }
  ui.dirty = true;
  schedule();
}

function task(id, contextId) {
  let t = model.tasks.get(id);
  if (!t) {
    t = { id, contextId: null, firstAt: null, states: [], messages: [], artifacts: new Map(), frames: [], exchanges: new Set(), said: [] };
    model.tasks.set(id, t);
    keep(model.tasks, id);
  }
  if (contextId && !t.contextId) {
    t.contextId = contextId;
    let c = model.contexts.get(contextId);
    if (!c) { c = { id: contextId, tasks: [] }; model.contexts.set(contextId, c); keep(model.contexts, contextId); }
    if (!c.tasks.includes(id)) c.tasks.push(id);
  }
  return t;
}

function link(x, taskId, contextId, at) {
  const t = task(taskId, contextId);
  if (!t.firstAt) t.firstAt = at;
  t.exchanges.add(x.n);
  x.taskIds.add(taskId);
  if (t.contextId) x.contextIds.add(t.contextId);
  if (x.said && !x.saidLinked) { t.said.push({ at: x.at, text: x.said }); x.saidLinked = true; }
}

function observeAnswer(x, answer, at, frame) {
  if (!answer || typeof answer !== 'object') return;
  const result = 'result' in answer || 'error' in answer || 'jsonrpc' in answer ? answer.result : answer;
  if (!result || typeof result !== 'object') return;
  if (result.task) observeTask(x, result.task, at, frame, 'task');
  else if (result.statusUpdate) {
    const u = result.statusUpdate;
    const t = taskOf(x, u.taskId, u.contextId, at);
    if (t) { state(t, u.status, at); record(t, x, frame, 'statusUpdate', at); }
  } else if (result.artifactUpdate) {
    const u = result.artifactUpdate;
    const t = taskOf(x, u.taskId, u.contextId, at);
    if (t) { artifact(t, u.artifact || {}, u.append); record(t, x, frame, 'artifactUpdate', at); }
  } else if (result.message) {
    const m = result.message;
    if (m.contextId) x.contextIds.add(m.contextId);
    const t = m.taskId ? taskOf(x, m.taskId, m.contextId, at) : null;
    if (t) { t.messages.push({ at, role: m.role, text: partsText(m.parts) }); record(t, x, frame, 'message', at); }
    else x.answer = partsText(m.parts);
  } else if (typeof result.id === 'string' && result.status) observeTask(x, result, at, frame, 'task');
  else if (Array.isArray(result.tasks)) for (const t of result.tasks) if (t && t.id) task(t.id, t.contextId);
}

function observeTask(x, t, at, frame, kind) {
  const rec = taskOf(x, t.id, t.contextId, at);
  if (!rec) return;
  state(rec, t.status, at);
  for (const a of t.artifacts || []) artifact(rec, a, false);
  record(rec, x, frame, kind, at);
}

function taskOf(x, id, contextId, at) {
  if (typeof id !== 'string' || id === '') return null;
  link(x, id, contextId, at);
  return model.tasks.get(id);
}

function state(t, status, at) {
  if (!status || !status.state) return;
  const last = t.states[t.states.length - 1];
  if (!last || last.state !== status.state) t.states.push({ state: status.state, at });
  if (status.message && status.message.parts) {
    const text = partsText(status.message.parts);
    const prev = t.messages[t.messages.length - 1];
    if (text && !(prev && prev.text === text && prev.state === status.state)) {
      t.messages.push({ at, role: status.message.role, text, state: status.state });
    }
  }
}

function artifact(t, a, append) {
  const id = a.artifactId || a.name || '(unnamed)';
  const prior = t.artifacts.get(id);
  if (prior && append) prior.parts.push(...(a.parts || []));
  else t.artifacts.set(id, { id, name: a.name || id, parts: [...(a.parts || [])] });
}

function record(t, x, frame, kind, at) {
  if (frame) t.frames.push({ exchange: x.n, at: frame.at, index: frame.index, kind, data: frame.data });
}

function partsText(parts) {
  return (parts || []).filter(p => typeof p.text === 'string').map(p => p.text).join('\n');
}

// ---- drawing -----------------------------------------------------------------------------------

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === 'class') e.className = v;
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (k === 'data') for (const [dk, dv] of Object.entries(v)) e.dataset[dk] = dv;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

const $ = id => document.getElementById(id);

function clock(at) {
  if (!at) return '';
  const m = /T(\d\d:\d\d:\d\d)(\.\d{1,3})?/.exec(at);
  return m ? m[1] + (m[2] || '.000').padEnd(4, '0') : at;
}

function shortState(s) { return (s || '').replace('TASK_STATE_', ''); }

function pretty(text) {
  const v = parse(text);
  return v === undefined ? text : JSON.stringify(v, null, 2);
}

function statusClass(x) {
  if (x.refused || (x.status && x.status >= 400)) return 'status-bad';
  if (x.open) return 'status-open';
  return 'status-ok';
}

function exchangeLabel(x) { return x.rpc || (x.method + ' ' + x.target); }

// A redraw at the next animation frame, or once REDRAW_MS (or the drawing budget) has passed.
function schedule() {
  if (ui.frame || (ui.timer !== null && !ui.urgent)) return;
  if (ui.timer !== null) { clearTimeout(ui.timer); ui.timer = null; }
  const wait = ui.urgent ? 0 : Math.max(0, ui.nextAt - performance.now());
  ui.timer = setTimeout(() => {
    ui.timer = null; ui.frame = true;
    requestAnimationFrame(() => { ui.frame = false; render(); });
  }, wait);
}

function redraw() { ui.urgent = true; schedule(); }

function render() {
  const began = performance.now();
  ui.dirty = false; ui.urgent = false;
  draw();
  // Reading a size lays the page out now, so the time taken counts the layout of what was drawn.
  void document.body.offsetHeight;
  ui.nextAt = began + Math.max(REDRAW_MS, (performance.now() - began) / REDRAW_SHARE);
  if (ui.dirty || ui.urgent) schedule();
}

function draw() {
  if (ui.view !== 'exchanges') { list.rebuild = true; ui.changed.clear(); ui.added = []; }
  $('count-exchanges').textContent = model.exchanges.size;
  $('count-tasks').textContent = model.tasks.size;
  $('count-contexts').textContent = model.contexts.size;
  $('count-problems').textContent = model.problems.length;
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('active', b.dataset.view === ui.view);
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== 'view-' + ui.view;
  ({ exchanges: drawExchanges, tasks: drawTasks, contexts: drawContexts, problems: drawProblems, exchange: drawExchange })[ui.view]();
}

function matches(x) {
  const f = id => $(id).value.trim().toLowerCase();
  const method = f('filter-method'), status = f('filter-status'), taskId = f('filter-task'), ctx = f('filter-context');
  if (method && !exchangeLabel(x).toLowerCase().includes(method) && !x.target.toLowerCase().includes(method)) return false;
  if (status && !String(x.refused ? x.status + ' refused' : x.status).toLowerCase().includes(status)) return false;
  if (taskId && ![...x.taskIds].some(t => t.toLowerCase().includes(taskId))) return false;
  if (ctx && ![...x.contextIds].some(c => c.toLowerCase().includes(ctx))) return false;
  return true;
}

function row(x) {
  const status = x.refused ? x.status + ' (tap)' : x.status === null ? '…' : x.status + (x.open ? ' stream' : x.stream ? ' stream, ' + x.frames.length + ' frames' : '');
  return el('tr', { data: { exchange: x.n }, on: { click: () => show('exchange', x.n) } },
    el('td', { class: 'mono' }, x.n), el('td', { class: 'mono' }, clock(x.at)), el('td', {}, exchangeLabel(x)),
    el('td', { class: statusClass(x) }, status), el('td', { class: 'mono' }, x.elapsedMs === null ? '' : x.elapsedMs + ' ms'),
    el('td', { class: 'mono' }, x.bytes === null ? '' : x.bytes), el('td', { class: 'mono' }, [...x.taskIds].map(t => t.slice(0, 8)).join(' ')),
    el('td', {}, x.flags.length ? el('span', { class: 'flag', title: x.flags.map(f => f.summary).join('\n') }, '!' + x.flags.length) : ''));
}

function filterKey() {
  return ['filter-method', 'filter-status', 'filter-task', 'filter-context'].map(id => $(id).value.trim().toLowerCase()).join('\u0000');
}

function drawExchanges() {
  const key = filterKey();
  // Unfiltered, the list only grows at the top: new rows go in, changed rows are replaced, the oldest
  // leave at the bottom. A filter (a person looking) or a new session redraws the list whole.
  if (list.rebuild || key !== list.key || key !== '\u0000\u0000\u0000') {
    list.rebuild = false; list.key = key; list.rows.clear(); list.listed = 0; list.unlisted = 0;
    const body = el('tbody');
    for (const x of [...model.exchanges.values()].reverse()) {
      if (!matches(x)) continue;
      // The newest rows only: redrawing tens of thousands on every event would stall the page.
      if (list.listed >= MAX_ROWS) { list.unlisted++; continue; }
      const r = row(x);
      list.rows.set(x.n, r); list.listed++;
      body.append(r);
    }
    $('exchanges').tBodies[0].replaceWith(body);
  } else {
    const body = $('exchanges').tBodies[0];
    const added = new Set(ui.added.slice(-MAX_ROWS));
    list.unlisted += ui.added.length - added.size;
    for (const n of ui.changed) {
      const old = list.rows.get(n);
      if (!old || !model.exchanges.has(n)) continue;
      const r = row(model.exchanges.get(n));
      old.replaceWith(r); list.rows.set(n, r);
    }
    const fresh = document.createDocumentFragment();
    for (const x of [...added].reverse()) {
      if (list.rows.has(x.n) || !model.exchanges.has(x.n)) continue;
      const r = row(x);
      list.rows.set(x.n, r); list.listed++;
      fresh.append(r);
    }
    body.prepend(fresh);
    while (list.listed > MAX_ROWS) {
      const last = body.lastElementChild;
      list.rows.delete(Number(last.dataset.exchange)); last.remove();
      list.listed--; list.unlisted++;
    }
  }
  ui.changed.clear(); ui.added = [];
  const older = Math.max(0, list.unlisted);
  const note = (older ? older + ' older exchanges not listed; filter to find them.' : '')
    + (model.letGo ? (older ? ' ' : '') + model.letGo + ' older ones are no longer kept by the page (the tap\'s Export has what it keeps).' : '');
  // In the table's foot, not its body: the body holds exactly one row per listed exchange.
  const trailer = $('unlisted');
  trailer.hidden = !note;
  trailer.firstElementChild.textContent = note;
}

function drawList(listId, items, selected, pick, label) {
  const list = $(listId);
  list.replaceChildren(...items.map(item => el('li', { class: item.id === selected ? 'selected' : '', data: { id: item.id },
    on: { click: () => pick(item.id) } }, label(item))));
}

function drawTasks() {
  const tasks = [...model.tasks.values()];
  drawList('task-list', tasks, ui.task, id => { ui.task = id; redraw(); }, t =>
    t.id + '  ' + shortState((t.states[t.states.length - 1] || {}).state));
  const t = model.tasks.get(ui.task);
  $('task-detail').replaceChildren(...(t ? taskDetail(t) : [el('p', { class: 'dim' }, 'Pick a task.')]));
}

function taskDetail(t) {
  const parts = [el('h2', {}, 'Task ', el('span', { class: 'mono' }, t.id)),
    el('div', { class: 'dim' }, 'context ', el('a', { on: { click: () => { ui.context = t.contextId; show('contexts'); } } }, t.contextId || '?'))];
  parts.push(el('h3', {}, 'Timeline'), el('div', { class: 'timeline' }, ...t.states.map(s =>
    el('div', { class: 'state ' + s.state, data: { state: s.state } }, el('span', { class: 'name' }, shortState(s.state)), el('span', { class: 'time' }, clock(s.at))))));
  if (t.messages.length) {
    parts.push(el('h3', {}, 'Status messages'), ...t.messages.map(m => el('div', { class: 'message' },
      el('span', { class: 'mono dim' }, clock(m.at) + ' '), m.text)));
  }
  if (t.artifacts.size) {
    parts.push(el('h3', {}, 'Artifacts'));
    for (const a of t.artifacts.values()) {
      parts.push(el('div', { class: 'artifact' }, el('strong', {}, a.name),
        ...a.parts.map(p => typeof p.text === 'string' ? el('div', {}, p.text)
          : el('details', {}, el('summary', {}, p.data !== undefined ? 'data' : 'part'), el('pre', {}, JSON.stringify(p.data !== undefined ? p.data : p, null, 2))))));
    }
  }
  parts.push(el('h3', {}, 'Frames'), el('table', { class: 'frames' }, el('tbody', {}, ...t.frames.map(f => el('tr', {},
    el('td', { class: 'mono' }, clock(f.at)), el('td', {}, el('a', { on: { click: () => show('exchange', f.exchange) } }, '#' + f.exchange + ' frame ' + f.index)),
    el('td', {}, f.kind), el('td', {}, el('details', {}, el('summary', {}, 'json'), el('pre', {}, pretty(f.data)))))))));
  return parts;
}

function drawContexts() {
  const contexts = [...model.contexts.values()];
  drawList('context-list', contexts, ui.context, id => { ui.context = id; redraw(); }, c => c.id + '  (' + c.tasks.length + ')');
  const c = model.contexts.get(ui.context);
  if (!c) { $('context-detail').replaceChildren(el('p', { class: 'dim' }, 'Pick a context.')); return; }
  $('context-detail').replaceChildren(el('h2', {}, 'Context ', el('span', { class: 'mono' }, c.id)), ...c.tasks.map(id => {
    const t = model.tasks.get(id);
    if (!t) return el('div', { class: 'turn dim' }, id + ' (no longer kept by the page)');
    const last = t.states[t.states.length - 1] || {};
    return el('div', { class: 'turn' },
      el('a', { class: 'mono', on: { click: () => { ui.task = id; show('tasks'); } } }, id), ' ', el('span', { class: 'dim' }, shortState(last.state)),
      ...t.said.map(s => el('div', { class: 'message user' }, el('span', { class: 'mono dim' }, clock(s.at) + ' '), 'user: ' + s.text)),
      ...t.messages.map(m => el('div', { class: 'message' }, el('span', { class: 'mono dim' }, clock(m.at) + ' '), 'agent: ' + m.text)),
      ...[...t.artifacts.values()].map(a => el('div', { class: 'message' }, 'artifact ' + a.name + ': ' + partsText(a.parts))));
  }));
}

function drawProblems() {
  $('problems').replaceChildren(...model.problems.map(p => el('li', { data: { problem: p.problem } },
    el('span', { class: 'mono dim' }, clock(p.at) + ' '), el('a', { on: { click: () => show('exchange', p.exchange) } }, '#' + p.exchange), ' ',
    el('strong', {}, p.summary), ' ', el('span', { class: 'dim' }, p.detail))));
}

function headerBlock(x, headers) {
  if (!x.headersKept) return el('div', { class: 'headers dim' }, x.headersNote || 'headers: asking the tap…');
  return el('div', { class: 'headers' }, ...Object.entries(headers).map(([k, v]) => el('div', {}, k + ': ' + v)));
}

// The live feed leaves headers out; the raw view asks the tap for its exchange whole.
async function fetchHeaders(x) {
  x.headersAsked = true;
  try {
    const answer = await fetch('exchange?n=' + x.n);
    const text = await answer.text();
    if (!answer.ok) { x.headersNote = text; return; }
    for (const l of text.split('\n')) {
      const line = parse(l);
      if (!line || !line.headers) continue;
      if (line.event === 'request') x.reqHeaders = line.headers;
      else if (line.event === 'response' || line.event === 'stream-opened') x.resHeaders = line.headers;
    }
    x.headersKept = true;
  } catch (e) {
    x.headersNote = 'the tap did not answer for the headers: ' + e;
  } finally {
    redraw();
  }
}

function curl(x) {
  const q = s => "'" + String(s).replace(/'/g, "'\\''") + "'";
  const base = location.protocol + '//' + location.hostname + ':' + (ui.tapPort || location.port);
  const parts = ['curl', x.stream ? '-N' : null, '-X', x.method, q((ui.tapUrl || base) .replace(/\/$/, '') + x.target)].filter(Boolean);
  // curl writes its own framing and connection headers; the rest go as they were sent.
  const own = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'upgrade', 'http2-settings', 'keep-alive', 'te', 'expect']);
  for (const [k, v] of Object.entries(x.reqHeaders)) if (!own.has(k.toLowerCase())) parts.push('-H', q(k + ': ' + v));
  if (x.reqBody) parts.push('--data-raw', q(x.reqBody));
  return parts.join(' ');
}

function drawExchange() {
  const x = model.exchanges.get(ui.exchange);
  if (!x) { $('raw').replaceChildren(el('p', { class: 'dim' }, 'No such exchange.')); return; }
  if (!x.headersKept && !x.headersAsked && !ui.importing) fetchHeaders(x);
  const curlText = curl(x);
  const parts = [el('h2', {}, '#' + x.n + ' ' + exchangeLabel(x)),
    ...x.flags.map(f => el('div', { class: 'status-bad' }, '⚠ ' + f.summary + ' (' + f.detail + ')')),
    el('h3', {}, 'Request'), el('div', { class: 'mono' }, x.method + ' ' + x.target + ' ' + x.protocol), headerBlock(x, x.reqHeaders),
    x.reqBody ? el('pre', { id: 'raw-request' }, pretty(x.reqBody)) : null,
    el('button', { id: 'copy-curl', on: { click: () => navigator.clipboard && navigator.clipboard.writeText(curlText) } }, 'Copy as curl'),
    x.headersKept ? el('pre', { id: 'curl' }, curlText) : null,
    el('h3', {}, 'Response'),
    el('div', { class: statusClass(x) }, x.refused ? x.status + ' from the tap: ' + x.refused : x.status === null ? 'waiting…' : String(x.status)),
    headerBlock(x, x.resHeaders)];
  if (x.stream) {
    parts.push(el('table', { class: 'frames' }, el('tbody', {}, ...x.frames.map(f => el('tr', {},
      el('td', { class: 'mono' }, clock(f.at)), el('td', {}, 'frame ' + f.index + (f.id ? ' id ' + f.id : '') + (f.type !== 'message' ? ' event ' + f.type : '')),
      el('td', {}, el('pre', {}, pretty(f.data))))))));
  } else if (x.resBody) {
    parts.push(el('pre', { id: 'raw-response' }, pretty(x.resBody)));
  }
  $('raw').replaceChildren(...parts);
}

function show(view, exchange) {
  ui.view = view;
  if (exchange !== undefined) ui.exchange = exchange;
  redraw();
}

function banner(text) {
  const b = $('banner');
  b.hidden = false;
  b.textContent = text;
}


// ---- the feed, import, composer ----------------------------------------------------------------

function connect() {
  const source = new EventSource('events');
  // A message carries the lines of one batch, one per data line.
  source.onmessage = e => {
    if (ui.importing) return;
    for (const text of e.data.split('\n')) { const line = parse(text); if (line) apply(line); }
  };
  source.addEventListener('live', () => setMode(ui.mode));
  source.addEventListener('dropped', e => banner(e.data + ' events were dropped because this page fell behind the tap; reload the page to see the whole session.'));
  source.addEventListener('history-dropped', e => banner('The first ' + e.data + ' events of this session are no longer kept (the history is bounded).'));
  source.onerror = () => { if (!ui.importing) setMode('disconnected'); };
  source.onopen = () => { reset(); redraw(); };
}

function setMode(mode) {
  const m = $('mode');
  m.textContent = mode;
  m.className = 'badge ' + mode.split(' ')[0];
}

async function importFile(file) {
  const answer = await fetch('import', { method: 'POST', body: file, headers: { 'X-Legate-Inspector': '1' } });
  const text = await answer.text();
  if (!answer.ok) { banner(text); return; }
  ui.importing = true;
  reset();
  for (const line of text.split('\n')) { const l = parse(line); if (l) apply(l); }
  setMode('imported ' + file.name);
  banner('Showing ' + file.name + '; live traffic is not shown. Reload the page to go back to live.');
  redraw();
}

async function compose(ev) {
  ev.preventDefault();
  const form = { text: $('compose-text').value, taskId: $('compose-task').value, contextId: $('compose-context').value };
  const answer = await fetch('send', { method: 'POST', body: JSON.stringify(form), headers: { 'Content-Type': 'application/json', 'X-Legate-Inspector': '1' } });
  const text = await answer.text();
  $('compose-result').textContent = answer.ok ? 'sent (' + (parse(text) || {}).id + ')' : text;
  if (answer.ok) $('compose-text').value = '';
}

async function start() {
  for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => show(b.dataset.view));
  for (const f of document.querySelectorAll('.filters input')) f.addEventListener('input', redraw);
  $('import').addEventListener('change', e => { if (e.target.files[0]) importFile(e.target.files[0]); });
  $('composer').addEventListener('submit', compose);
  const status = await (await fetch('status')).json();
  ui.mode = status.mode;
  $('target').textContent = '→ ' + status.target;
  if (status.mode === 'replay') $('composer').hidden = true;
  if (status.tap) ui.tapUrl = status.tap;
  setMode(status.mode);
  connect();
  redraw();
}

start();
