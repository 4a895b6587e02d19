// legate tap's inspector. The tap keeps the session and what its lists show: a row per exchange,
// the tasks and contexts the answers showed, the problems it flagged. Live over SSE from /events,
// it tells the page how things stand at most four times a second: the counts, the newest rows that
// changed, the new problems. The page asks for the rest when it shows it: a filtered exchange list
// (/rows), the task and context lists (/tasks, /contexts), and the exchanges of a task, a context or
// one exchange whole (/exchange), which it reads into a Session to draw bodies; again whenever the
// feed says something changed. So the page's work follows what it draws, not the traffic: measured
// with bench workload 8, a page that built its own model from every event took the browser as much
// CPU per request as the tap's own extra, on the two cores it shares with the tap and the agent.
// An imported file is read into a Session in the page and drawn from there.
// Every value from the wire is put on the page as text (textContent), never as HTML: the traffic
// cannot script the page.
'use strict';

// The newest rows only, as the tap sends them: a redraw lays the table out again.
const MAX_ROWS = 200;
// The problems the page keeps, as the tap does.
const MAX_PROBLEMS = 10000;
// Live traffic redraws at most this often, and never spends more than a fiftieth of the time drawing
// (REDRAW_SHARE); a click or a filter redraws at the next frame. Nothing is drawn while nothing changes.
// Measured with bench workload 8: redrawing on every animation frame took Chromium most of a core
// under load, which on two cores it took from the tap and the agent.
const REDRAW_MS = 250;
const REDRAW_SHARE = 0.02;

// How the session stands, from the feed's messages: the newest rows by number, the counts, the problems.
const live = { rows: new Map(), counts: { exchanges: 0, tasks: 0, contexts: 0, problems: 0 }, letGo: 0, problems: [] };
const ui = { view: 'exchanges', task: null, context: null, exchange: null, dirty: false, urgent: false,
  nextAt: 0, timer: null, frame: false };
// What the page asked the tap for, by what it is ('rows?…', 'tasks', 'task:ID', …): read again when
// stale (the feed said something changed) and drawn again only when the answer differs.
const asked = new Map();
// What each container was last drawn from, so an unchanged answer leaves it (and a person's opened
// <details>) alone.
const drawn = new Map();
// An imported file, read whole: its lists and views are drawn from it instead of from the tap.
let imported = null;

function reset() {
  live.rows.clear(); live.counts = { exchanges: 0, tasks: 0, contexts: 0, problems: 0 }; live.letGo = 0; live.problems = [];
  ui.task = null; ui.context = null; ui.exchange = null; asked.clear(); drawn.clear(); imported = null;
}

function parse(text) {
  if (typeof text !== 'string' || text === '') return undefined;
  try { return JSON.parse(text); } catch (e) { return undefined; }
}

// ---- the feed -----------------------------------------------------------------------------------

function take(m) {
  live.counts = m.counts; live.letGo = m.letGo;
  for (const r of m.rows) live.rows.set(r.n, r);
  if (live.rows.size > MAX_ROWS) {
    const keep = new Set([...live.rows.keys()].sort((a, b) => b - a).slice(0, MAX_ROWS));
    for (const n of live.rows.keys()) if (!keep.has(n)) live.rows.delete(n);
  }
  for (const p of m.problems) live.problems.push(p);
  if (live.problems.length > MAX_PROBLEMS) live.problems = live.problems.slice(-MAX_PROBLEMS);
  for (const a of asked.values()) a.stale = true;
  ui.dirty = true;
  schedule();
}

// ---- what the page asks for -----------------------------------------------------------------------

// The answer for `key` as last read (null until first read); reads it again when stale. `load`
// answers a promise of its text; `read` turns the text into what is drawn.
function ask(key, load, read) {
  let a = asked.get(key);
  if (!a) { a = { text: null, value: null, stale: true, loading: false, note: '' }; asked.set(key, a); }
  if (a.stale && !a.loading) {
    a.loading = true; a.stale = false;
    const first = a.text === null;
    load().then(text => {
      if (text !== a.text) { a.text = text; a.value = read(text); }
      a.note = '';
    }, e => { a.note = e.message || String(e); }).finally(() => {
      a.loading = false;
      // A first answer is drawn at once; a refresh under load waits for the next redraw like the rest.
      if (first) redraw(); else { ui.dirty = true; schedule(); }
    });
  }
  a.used = true;
  return a;
}

async function get(path) {
  const answer = await fetch(path);
  const text = await answer.text();
  if (!answer.ok) throw new Error(text.trim());
  return text;
}

function lines(text) { return text.split('\n').map(parse).filter(Boolean); }

// ---- a Session: exchanges, tasks and contexts read from whole lines, for the views that draw bodies ----

function newSession() { return { exchanges: new Map(), tasks: new Map(), contexts: new Map() }; }

function read(lines) {
  const s = newSession();
  for (const line of lines) apply(s, line);
  return s;
}

function apply(s, line) {
  const n = line.exchange;
  let x = s.exchanges.get(n);
  if (!x) {
    x = { n, at: line.at, method: '', target: '', rpc: '', rpcId: undefined, reqHeaders: {}, reqBody: '', status: null,
      resHeaders: {}, resBody: '', frames: [], stream: false, open: false, elapsedMs: null, bytes: null, outcome: null,
      refused: null, flags: [], taskIds: new Set(), contextIds: new Set(), protocol: 'HTTP/1.1', grpc: null,
      grpcStatus: null, trailers: {} };
    s.exchanges.set(n, x);
  }
  switch (line.event) {
    case 'request': {
      x.at = line.at; x.method = line.method; x.target = line.target; x.protocol = line.protocol || 'HTTP/1.1';
      x.reqHeaders = line.headers || {}; x.reqBody = line.body || (line.bodyBase64 ? '(binary body)' : '');
      // A gRPC call (A2A §10) of A2A's service: its request message is the body, as on HTTP+JSON.
      x.grpc = x.target.startsWith(GRPC_SERVICE) ? x.target.slice(GRPC_SERVICE.length) : null;
      const body = parse(x.reqBody);
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        x.rpc = typeof body.method === 'string' && !x.grpc ? body.method : '';
        x.rpcId = body.id;
        // JSON-RPC carries the request in params; HTTP+JSON (A2A §11) sends the request message as the body.
        const p = body.params || (x.rpc ? {} : body);
        const m = p.message || {};
        if (m.taskId) x.taskIds.add(m.taskId);
        if (m.contextId) x.contextIds.add(m.contextId);
        if (typeof p.id === 'string') x.taskIds.add(p.id);
        if (m.parts) x.said = partsText(m.parts);
      }
      if (x.grpc) x.rpc = 'gRPC ' + x.grpc;
      break;
    }
    case 'response':
      x.status = line.status; x.resHeaders = line.headers || {}; x.resBody = line.body || '';
      x.elapsedMs = line.elapsedMs; x.bytes = line.bodyBytes; x.outcome = line.outcome;
      x.grpcStatus = grpcStatus(x.resHeaders);
      observeAnswer(s, x, parse(x.resBody), line.at);
      break;
    case 'stream-opened':
      x.status = line.status; x.resHeaders = line.headers || {}; x.stream = true; x.open = true;
      break;
    case 'frame': {
      const f = { at: line.at, index: line.index, type: line.type, id: line.id, data: line.data };
      x.frames.push(f);
      observeAnswer(s, x, parse(line.data), line.at, f);
      break;
    }
    case 'stream-closed':
      x.open = false; x.elapsedMs = line.elapsedMs; x.bytes = line.bodyBytes; x.outcome = line.outcome;
      x.trailers = line.trailers || {}; x.grpcStatus = grpcStatus(x.trailers);
      break;
    case 'refused':
      x.status = line.status; x.refused = line.reason;
      break;
    case 'flagged':
      x.flags.push({ exchange: n, at: line.at, problem: line.problem, summary: line.summary, detail: line.detail });
      break;
  }
}

// gRPC's status codes by number (google.rpc.Code): a call's grpc-status is shown by name, as the tap lists it.
const GRPC_SERVICE = '/lf.a2a.v1.A2AService/';
const GRPC_CODES = ['OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL',
  'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED'];

function field(fields, name) {
  const entry = Object.entries(fields || {}).find(([k]) => k.toLowerCase() === name);
  return entry ? String(entry[1]) : null;
}

// A call's status by name (NOT_FOUND), by number when it is none of gRPC's; null when it has none.
function grpcStatus(fields) {
  const code = (field(fields, 'grpc-status') || '').trim();
  if (!code) return null;
  return /^\d+$/.test(code) && GRPC_CODES[Number(code)] ? GRPC_CODES[Number(code)] : code;
}

// "5 NOT_FOUND: Task not found: x": the status as the console words it, grpc-message percent-decoded.
function grpcSummary(fields) {
  const code = (field(fields, 'grpc-status') || '').trim();
  let message = field(fields, 'grpc-message');
  try { message = message && decodeURIComponent(message); } catch (e) { /* shown as it came */ }
  return code + ' ' + grpcStatus(fields) + (message ? ': ' + message : '');
}

function task(s, id, contextId) {
  let t = s.tasks.get(id);
  if (!t) {
    t = { id, contextId: null, firstAt: null, states: [], messages: [], artifacts: new Map(), frames: [], said: [] };
    s.tasks.set(id, t);
  }
  if (contextId && !t.contextId) {
    t.contextId = contextId;
    let c = s.contexts.get(contextId);
    if (!c) { c = { id: contextId, tasks: [] }; s.contexts.set(contextId, c); }
    if (!c.tasks.includes(id)) c.tasks.push(id);
  }
  return t;
}

function taskOf(s, x, id, contextId, at) {
  if (typeof id !== 'string' || id === '') return null;
  const t = task(s, id, contextId);
  if (!t.firstAt) t.firstAt = at;
  x.taskIds.add(id);
  if (t.contextId) x.contextIds.add(t.contextId);
  if (x.said && !x.saidLinked) { t.said.push({ at: x.at, text: x.said }); x.saidLinked = true; }
  return t;
}

function observeAnswer(s, x, answer, at, frame) {
  if (!answer || typeof answer !== 'object') return;
  const result = 'result' in answer || 'error' in answer || 'jsonrpc' in answer ? answer.result : answer;
  if (!result || typeof result !== 'object') return;
  if (result.task) observeTask(s, x, result.task, at, frame, 'task');
  else if (result.statusUpdate) {
    const u = result.statusUpdate;
    const t = taskOf(s, x, u.taskId, u.contextId, at);
    if (t) { state(t, u.status, at); record(t, x, frame, 'statusUpdate'); }
  } else if (result.artifactUpdate) {
    const u = result.artifactUpdate;
    const t = taskOf(s, x, u.taskId, u.contextId, at);
    if (t) { artifact(t, u.artifact || {}, u.append); record(t, x, frame, 'artifactUpdate'); }
  } else if (result.message) {
    const m = result.message;
    if (m.contextId) x.contextIds.add(m.contextId);
    const t = m.taskId ? taskOf(s, x, m.taskId, m.contextId, at) : null;
    if (t) { t.messages.push({ at, role: m.role, text: partsText(m.parts) }); record(t, x, frame, 'message'); }
    else x.answer = partsText(m.parts);
  } else if (typeof result.id === 'string' && result.status) observeTask(s, x, result, at, frame, 'task');
  else if (Array.isArray(result.tasks)) for (const t of result.tasks) if (t && t.id) task(s, t.id, t.contextId);
}

function observeTask(s, x, t, at, frame, kind) {
  const rec = taskOf(s, x, t.id, t.contextId, at);
  if (!rec) return;
  state(rec, t.status, at);
  for (const a of t.artifacts || []) artifact(rec, a, false);
  record(rec, x, frame, kind);
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

function record(t, x, frame, kind) {
  if (frame) t.frames.push({ exchange: x.n, at: frame.at, index: frame.index, kind, data: frame.data });
}

function partsText(parts) {
  return (parts || []).filter(p => typeof p.text === 'string').map(p => p.text).join('\n');
}

// ---- an imported file's lists, as the tap would answer them --------------------------------------

function importedRow(x) {
  return { n: x.n, at: x.at, label: exchangeLabel(x), status: x.status === null ? undefined : x.status, stream: x.stream,
    open: x.open, frames: x.frames.length, elapsedMs: x.elapsedMs === null ? undefined : x.elapsedMs,
    bytes: x.bytes === null ? undefined : x.bytes, refused: x.refused || undefined, grpc: x.grpcStatus || undefined,
    flags: x.flags.map(f => f.summary),
    taskIds: [...x.taskIds], contextIds: [...x.contextIds], target: x.target };
}

// The same rule as the tap's filter (SessionIndex.Filter): each a case-insensitive part of what it matches.
function matches(r, f) {
  const has = (v, part) => String(v).toLowerCase().includes(part);
  if (f.method && !has(r.label, f.method) && !has(r.target, f.method)) return false;
  const status = r.status === undefined ? '' : r.refused ? r.status + ' refused'
    : r.grpc ? r.status + ' ' + r.grpc : String(r.status);
  if (f.status && !has(status, f.status)) return false;
  if (f.task && !r.taskIds.some(t => has(t, f.task))) return false;
  if (f.context && !r.contextIds.some(c => has(c, f.context))) return false;
  return true;
}

function newestFirst(items, n) {
  const all = [...items].reverse();
  return { items: all.slice(0, n), more: Math.max(0, all.length - n) };
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
  // A listed row names a gRPC call's status `grpc`; an exchange read whole, `grpcStatus` (its `grpc` is the rpc).
  const grpc = 'grpcStatus' in x ? x.grpcStatus : x.grpc;
  if (x.refused || (typeof x.status === 'number' && (x.status >= 400 || x.status === 0)) || (grpc && grpc !== 'OK')) return 'status-bad';
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
  for (const a of asked.values()) a.used = false;
  const counts = imported ? imported.counts : live.counts;
  $('count-exchanges').textContent = counts.exchanges;
  $('count-tasks').textContent = counts.tasks;
  $('count-contexts').textContent = counts.contexts;
  $('count-problems').textContent = counts.problems;
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('active', b.dataset.view === ui.view);
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== 'view-' + ui.view;
  ({ exchanges: drawExchanges, tasks: drawTasks, contexts: drawContexts, problems: drawProblems, exchange: drawExchange })[ui.view]();
  // What no view drew from is not read again.
  for (const [k, a] of asked) if (!a.used && !a.loading) asked.delete(k);
}

function filters() {
  const f = id => $(id).value.trim().toLowerCase();
  return { method: f('filter-method'), status: f('filter-status'), task: f('filter-task'), context: f('filter-context') };
}

function row(r) {
  const status = r.refused ? r.status + ' (tap)' : r.status === undefined ? '…'
    : r.status + (r.grpc ? ' ' + r.grpc : '') + (r.open ? ' stream' : r.stream ? ' stream, ' + r.frames + ' frames' : '');
  const flags = r.flags || [];
  const tr = el('tr', { data: { exchange: r.n }, on: { click: () => show('exchange', r.n) } },
    el('td', { class: 'mono' }, r.n), el('td', { class: 'mono' }, clock(r.at)), el('td', {}, r.label),
    el('td', { class: statusClass(r) }, status), el('td', { class: 'mono' }, r.elapsedMs === undefined ? '' : r.elapsedMs + ' ms'),
    el('td', { class: 'mono' }, r.bytes === undefined ? '' : r.bytes), el('td', { class: 'mono' }, (r.taskIds || []).map(t => t.slice(0, 8)).join(' ')),
    el('td', {}, flags.length ? el('span', { class: 'flag', title: flags.join('\n') }, '!' + flags.length) : ''));
  tr.row = r;
  return tr;
}

// The listed rows, newest first; a row whose value did not change keeps its element.
function drawRows(rows, more, older) {
  const body = $('exchanges').tBodies[0];
  const had = new Map([...body.rows].map(tr => [Number(tr.dataset.exchange), tr]));
  const trs = rows.map(r => { const tr = had.get(r.n); return tr && tr.row === r ? tr : row(r); });
  if (trs.length !== body.rows.length || trs.some((tr, i) => body.rows[i] !== tr)) body.replaceChildren(...trs);
  const note = (more ? more + ' older exchanges not listed; filter to find them.' : '')
    + (older ? (more ? ' ' : '') + 'The tap no longer keeps the first ' + older + ' events of this session.' : '');
  // In the table's foot, not its body: the body holds exactly one row per listed exchange.
  const trailer = $('unlisted');
  trailer.hidden = !note;
  trailer.firstElementChild.textContent = note;
}

function drawExchanges() {
  const f = filters();
  const filtered = f.method || f.status || f.task || f.context;
  if (imported) {
    const all = imported.rows.filter(r => matches(r, f));
    const l = newestFirst(all, MAX_ROWS);
    drawRows(l.items, l.more, 0);
  } else if (!filtered) {
    // Unfiltered, the newest rows as the feed keeps them.
    const rows = [...live.rows.values()].sort((a, b) => b.n - a.n);
    drawRows(rows, Math.max(0, live.counts.exchanges - rows.length), live.letGo);
  } else {
    const q = new URLSearchParams(Object.entries(f).filter(([, v]) => v)).toString();
    const a = ask('rows?' + q, () => get('rows?' + q), text => parse(text));
    if (a.value) drawRows(a.value.rows, a.value.more, live.letGo);
  }
}

// The newest items, newest first.
function drawList(listId, listing, selected, pick, label) {
  if (!listing) return;
  // Drawn again only when the list or the pick changed, so a click never lands on an element being replaced.
  const last = drawn.get(listId);
  if (last && last.value === listing && last.key === selected) return;
  drawn.set(listId, { key: selected, value: listing });
  const items = listing.items;
  $(listId).replaceChildren(...items.map(item => el('li', { class: item.id === selected ? 'selected' : '', data: { id: item.id },
    on: { click: () => pick(item.id) } }, label(item))), ...(listing.more > 0 ? [el('li', { class: 'dim' }, listing.more + ' older not listed')] : []));
}

// Draws a view's detail only when what it shows, or its reading, is new, so a person's opened
// <details> stay open.
function drawDetail(containerId, key, value, parts) {
  const last = drawn.get(containerId);
  if (value !== null && last && last.key === key && last.value === value) return;
  drawn.set(containerId, { key, value });
  $(containerId).replaceChildren(...parts());
}

function waiting(a, what) {
  return [el('p', { class: 'dim' }, (a && a.note) || 'Reading ' + what + ' from the tap…')];
}

// The Session a view draws: the tap's lines for `query`, or the imported file's own.
function session(key, query) {
  if (imported) return { value: imported.session };
  return ask(key, () => get('exchange?' + query), text => read(lines(text)));
}

function taskListing() {
  if (imported) return imported.tasks || (imported.tasks = newestFirst([...imported.session.tasks.values()]
    .map(t => ({ id: t.id, state: (t.states[t.states.length - 1] || {}).state })), MAX_ROWS));
  const a = ask('tasks', () => get('tasks'), text => { const v = parse(text); return { items: v.tasks, more: v.more }; });
  return a.value;
}

function contextListing() {
  if (imported) return imported.contexts || (imported.contexts = newestFirst([...imported.session.contexts.values()]
    .map(c => ({ id: c.id, tasks: c.tasks.length })), MAX_ROWS));
  const a = ask('contexts', () => get('contexts'), text => { const v = parse(text); return { items: v.contexts, more: v.more }; });
  return a.value;
}

function drawTasks() {
  drawList('task-list', taskListing(), ui.task, id => { ui.task = id; redraw(); }, t => t.id + '  ' + shortState(t.state));
  if (ui.task === null) { drawDetail('task-detail', null, null, () => [el('p', { class: 'dim' }, 'Pick a task.')]); return; }
  const key = 'task:' + ui.task;
  const a = session(key, 'task=' + encodeURIComponent(ui.task));
  const t = a.value && a.value.tasks.get(ui.task);
  drawDetail('task-detail', key, a.value, () => t ? taskDetail(t) : waiting(a, 'the task'));
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
  drawList('context-list', contextListing(), ui.context, id => { ui.context = id; redraw(); }, c => c.id + '  (' + c.tasks + ')');
  if (ui.context === null) { drawDetail('context-detail', null, null, () => [el('p', { class: 'dim' }, 'Pick a context.')]); return; }
  const key = 'context:' + ui.context;
  const a = session(key, 'context=' + encodeURIComponent(ui.context));
  const c = a.value && a.value.contexts.get(ui.context);
  drawDetail('context-detail', key, a.value, () => c ? contextDetail(a.value, c) : waiting(a, 'the context'));
}

function contextDetail(s, c) {
  return [el('h2', {}, 'Context ', el('span', { class: 'mono' }, c.id)), ...c.tasks.map(id => {
    const t = s.tasks.get(id);
    const last = t.states[t.states.length - 1] || {};
    return el('div', { class: 'turn' },
      el('a', { class: 'mono', on: { click: () => { ui.task = id; show('tasks'); } } }, id), ' ', el('span', { class: 'dim' }, shortState(last.state)),
      ...t.said.map(m => el('div', { class: 'message user' }, el('span', { class: 'mono dim' }, clock(m.at) + ' '), 'user: ' + m.text)),
      ...t.messages.map(m => el('div', { class: 'message' }, el('span', { class: 'mono dim' }, clock(m.at) + ' '), 'agent: ' + m.text)),
      ...[...t.artifacts.values()].map(a => el('div', { class: 'message' }, 'artifact ' + a.name + ': ' + partsText(a.parts))));
  })];
}

function drawProblems() {
  const problems = imported ? imported.problems : live.problems;
  if (drawn.get('problems') === problems.length) return;
  drawn.set('problems', problems.length);
  $('problems').replaceChildren(...problems.map(p => el('li', { data: { problem: p.problem } },
    el('span', { class: 'mono dim' }, clock(p.at) + ' '), el('a', { on: { click: () => show('exchange', p.exchange) } }, '#' + p.exchange), ' ',
    el('strong', {}, p.summary), ' ', el('span', { class: 'dim' }, p.detail))));
}

function headerBlock(headers) {
  return el('div', { class: 'headers' }, ...Object.entries(headers).map(([k, v]) => el('div', {}, k + ': ' + v)));
}

function curl(x) {
  const q = s => "'" + String(s).replace(/'/g, "'\\''") + "'";
  if (x.grpc) return grpcurl(x, q);
  const base = location.protocol + '//' + location.hostname + ':' + (ui.tapPort || location.port);
  const parts = ['curl', x.stream ? '-N' : null, '-X', x.method, q((ui.tapUrl || base) .replace(/\/$/, '') + x.target)].filter(Boolean);
  // curl writes its own framing and connection headers; the rest go as they were sent.
  const own = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'upgrade', 'http2-settings', 'keep-alive', 'te', 'expect']);
  for (const [k, v] of Object.entries(x.reqHeaders)) if (!own.has(k.toLowerCase())) parts.push('-H', q(k + ': ' + v));
  if (x.reqBody) parts.push('--data-raw', q(x.reqBody));
  return parts.join(' ');
}

// A gRPC call again, with grpcurl: the tap's port takes gRPC beside HTTP/1.1, and a2a.proto (in
// this project's a2a-model/src/main/proto) gives grpcurl the service, since Legate serves no reflection.
function grpcurl(x, q) {
  const tap = (ui.tapUrl || (location.protocol + '//' + location.hostname + ':' + location.port)).replace(/^\w+:\/\//, '').replace(/\/.*$/, '');
  const parts = ['grpcurl', '-plaintext', '-import-path', 'a2a-model/src/main/proto', '-proto', 'a2a.proto'];
  // grpcurl writes its own transport and gRPC framing fields; the metadata goes as it was sent.
  const own = new Set(['content-type', 'te', 'user-agent', 'grpc-accept-encoding', 'grpc-encoding', 'grpc-timeout']);
  for (const [k, v] of Object.entries(x.reqHeaders)) if (!own.has(k.toLowerCase())) parts.push('-H', q(k + ': ' + v));
  if (x.reqBody) parts.push('-d', q(x.reqBody));
  parts.push(tap, x.target.replace(/^\//, ''));
  return parts.join(' ');
}

function drawExchange() {
  const key = 'exchange:' + ui.exchange;
  const a = session(key, 'n=' + ui.exchange);
  const x = a.value && a.value.exchanges.get(ui.exchange);
  drawDetail('raw', key, a.value, () => x ? rawExchange(x) : waiting(a, 'the exchange'));
}

function rawExchange(x) {
  const curlText = curl(x);
  const parts = [el('h2', {}, '#' + x.n + ' ' + exchangeLabel(x)),
    ...x.flags.map(f => el('div', { class: 'status-bad' }, '⚠ ' + f.summary + ' (' + f.detail + ')')),
    el('h3', {}, 'Request'), el('div', { class: 'mono' }, x.method + ' ' + x.target + ' ' + x.protocol), headerBlock(x.reqHeaders),
    x.reqBody ? el('pre', { id: 'raw-request' }, pretty(x.reqBody)) : null,
    el('button', { id: 'copy-curl', on: { click: () => navigator.clipboard && navigator.clipboard.writeText(curlText) } },
      x.grpc ? 'Copy as grpcurl' : 'Copy as curl'),
    el('pre', { id: 'curl' }, curlText),
    el('h3', {}, 'Response'),
    el('div', { class: statusClass(x) }, x.refused ? x.status + ' from the tap: ' + x.refused : x.status === null ? 'waiting…'
      : String(x.status) + (x.grpcStatus ? ' grpc-status ' + grpcSummary(x.stream ? x.trailers : x.resHeaders) : '')
        + (x.outcome && x.outcome !== 'COMPLETE' ? ' (' + x.outcome + ')' : '')),
    headerBlock(x.resHeaders)];
  if (x.stream) {
    parts.push(el('table', { class: 'frames' }, el('tbody', {}, ...x.frames.map(f => el('tr', {},
      el('td', { class: 'mono' }, clock(f.at)), el('td', {}, 'frame ' + f.index + (f.id ? ' id ' + f.id : '') + (f.type !== 'message' ? ' event ' + f.type : '')),
      el('td', {}, el('pre', {}, pretty(f.data))))))));
  } else if (x.resBody) {
    parts.push(el('pre', { id: 'raw-response' }, pretty(x.resBody)));
  }
  if (Object.keys(x.trailers).length) parts.push(el('h3', {}, 'Trailers'), headerBlock(x.trailers));
  return parts;
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
  source.onmessage = e => { if (!imported) { const m = parse(e.data); if (m) take(m); } };
  source.addEventListener('live', () => { if (!imported) setMode(ui.mode); });
  source.onerror = () => { if (!imported) setMode('disconnected'); };
  source.onopen = () => { if (!imported) { reset(); redraw(); } };
}

function setMode(mode) {
  const m = $('mode');
  m.textContent = mode;
  m.className = 'badge ' + mode.split(' ')[0];
}

// The tap reads the file (a HAR or JSON Lines) and answers its events as whole lines; the page
// reads them into a Session and draws its lists and views from it.
async function importFile(file) {
  const answer = await fetch('import', { method: 'POST', body: file, headers: { 'X-Legate-Inspector': '1' } });
  const text = await answer.text();
  if (!answer.ok) { banner(text); return; }
  reset();
  const s = read(lines(text));
  const rows = [...s.exchanges.values()].sort((a, b) => a.n - b.n).map(importedRow);
  const problems = [...s.exchanges.values()].flatMap(x => x.flags);
  imported = { session: s, rows, problems,
    counts: { exchanges: rows.length, tasks: s.tasks.size, contexts: s.contexts.size, problems: problems.length } };
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
