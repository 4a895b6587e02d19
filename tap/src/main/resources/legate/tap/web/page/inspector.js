// legate tap's inspector. Live over SSE from /events, the tap sends each event as a summary: its line
// (the same line as `legate tap --log`) without headers and body, and in `facts` what the body says
// that the lists need (the JSON-RPC method, the task and context ids, each task's state). From those
// the page keeps an index: the exchange list, its filters, the task and context lists, the counts.
// A view that draws bodies (a task, a context, one exchange's raw view) asks the tap for its
// exchanges whole (/exchange?n=) and reads them into a Session, again whenever the feed says one of
// them changed. Measured with bench workload 8: building a model of every task from every body took
// the browser most of its CPU under load, which on two cores it took from the tap and the agent.
// Every value from the wire is put on the page as text (textContent), never as HTML: the traffic
// cannot script the page.
'use strict';

// The newest rows only: a redraw lays the whole table out again, so its cost grows with the rows listed.
const MAX_ROWS = 200;
// The page keeps about what the tap keeps (its history holds 50,000 events); older exchanges, tasks and
// contexts are let go, so a page left open under load neither grows without end nor slows down.
const MAX_KEPT = 25000;
// The most exchanges a view asks the tap for at once (the tap's own limit): a task's or a context's newest.
const MAX_FETCHED = 1000;
// Live traffic redraws at most this often, and never spends more than a fiftieth of the time drawing
// (REDRAW_SHARE); a click or a filter redraws at the next frame. Nothing is drawn while nothing changes.
// Measured with bench workload 8: redrawing on every animation frame took Chromium most of a core
// under load, which on two cores it took from the tap and the agent.
const REDRAW_MS = 250;
const REDRAW_SHARE = 0.02;

const index = { exchanges: new Map(), tasks: new Map(), contexts: new Map(), problems: [], letGo: 0 };
const ui = { view: 'exchanges', task: null, context: null, exchange: null, importing: false, dirty: false, urgent: false,
  nextAt: 0, timer: null, frame: false, changed: new Set(), added: [] };
// The exchange list as drawn: a row per listed exchange, so a redraw under load touches only the rows that changed.
const list = { rows: new Map(), key: null, rebuild: true, listed: 0, unlisted: 0 };
// The open view's exchanges read whole: `key` names the view ('task:ID', 'context:ID', 'exchange:N').
const detail = { key: null, session: null, loading: false, stale: false, note: '', drawn: new Map() };
// An imported file's whole lines by exchange: its views read them here instead of asking the tap.
let imported = null;

function reset() {
  index.exchanges.clear(); index.tasks.clear(); index.contexts.clear(); index.problems = []; index.letGo = 0;
  ui.task = null; ui.context = null; ui.exchange = null; arrivals.clear();
  ui.changed.clear(); ui.added = []; list.rebuild = true;
  detail.key = null; detail.session = null; detail.drawn.clear(); imported = null;
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

// The newest `n` kept values of a map, newest first.
function newest(map, n) {
  const a = arrivals.get(map);
  const out = [];
  if (!a) return out;
  for (let i = a.keys.length - 1; i >= a.head && out.length < n; i--) {
    const v = map.get(a.keys[i]);
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

function parse(text) {
  if (typeof text !== 'string' || text === '') return undefined;
  try { return JSON.parse(text); } catch (e) { return undefined; }
}

function name(ids, id) { if (typeof id === 'string' && id !== '' && !ids.includes(id)) ids.push(id); }

// ---- the index: one summary line at a time -----------------------------------------------------

function indexLine(line) {
  const n = line.exchange;
  let x = index.exchanges.get(n);
  if (!x) {
    x = { n, at: line.at, method: '', target: '', rpc: '', status: null, stream: false, open: false, frames: 0,
      elapsedMs: null, bytes: null, refused: null, flags: [], taskIds: [], contextIds: [] };
    index.exchanges.set(n, x);
    ui.added.push(x);
    keep(index.exchanges, n, old => {
      index.letGo++;
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
    case 'request': x.at = line.at; x.method = line.method; x.target = line.target; break;
    case 'response': x.status = line.status; x.elapsedMs = line.elapsedMs; x.bytes = line.bodyBytes; break;
    case 'stream-opened': x.status = line.status; x.stream = true; x.open = true; break;
    case 'frame': x.frames++; break;
    case 'stream-closed': x.open = false; x.elapsedMs = line.elapsedMs; x.bytes = line.bodyBytes; break;
    case 'refused': x.status = line.status; x.refused = line.reason; break;
    case 'flagged': {
      const p = { exchange: n, at: line.at, problem: line.problem, summary: line.summary, detail: line.detail };
      x.flags.push(p); index.problems.push(p);
      break;
    }
  }
  const f = line.facts;
  if (f) {
    if (f.rpc) x.rpc = f.rpc;
    if (f.taskIds) for (const id of f.taskIds) name(x.taskIds, id);
    if (f.contextIds) for (const id of f.contextIds) name(x.contextIds, id);
    // A task is listed once an answer shows it; the ids a request names are kept for the filters.
    if (f.tasks) for (const t of f.tasks) shown(x, t);
  }
  if (touchesView(x)) detail.stale = true;
  ui.dirty = true;
  schedule();
}

function shown(x, s) {
  let t = index.tasks.get(s.id);
  if (!t) {
    t = { id: s.id, contextId: null, state: null, exchanges: [] };
    index.tasks.set(s.id, t);
    keep(index.tasks, s.id);
  }
  if (s.contextId && !t.contextId) {
    t.contextId = s.contextId;
    let c = index.contexts.get(s.contextId);
    if (!c) { c = { id: s.contextId, tasks: [] }; index.contexts.set(s.contextId, c); keep(index.contexts, s.contextId); }
    name(c.tasks, t.id);
  }
  if (s.state) t.state = s.state;
  if (!t.exchanges.includes(x.n)) t.exchanges.push(x.n);
  name(x.taskIds, t.id);
  if (t.contextId) name(x.contextIds, t.contextId);
}

// Whether the exchange belongs to what the open view draws, which then reads its exchanges again.
function touchesView(x) {
  if (ui.view === 'tasks') return ui.task !== null && x.taskIds.includes(ui.task);
  if (ui.view === 'contexts') return ui.context !== null && x.contextIds.includes(ui.context);
  if (ui.view === 'exchange') return x.n === ui.exchange;
  return false;
}

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
      refused: null, flags: [], taskIds: new Set(), contextIds: new Set(), protocol: 'HTTP/1.1' };
    s.exchanges.set(n, x);
  }
  switch (line.event) {
    case 'request': {
      x.at = line.at; x.method = line.method; x.target = line.target; x.protocol = line.protocol || 'HTTP/1.1';
      x.reqHeaders = line.headers || {}; x.reqBody = line.body || (line.bodyBase64 ? '(binary body)' : '');
      const body = parse(x.reqBody);
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        x.rpc = typeof body.method === 'string' ? body.method : '';
        x.rpcId = body.id;
        // JSON-RPC carries the request in params; HTTP+JSON (A2A §11) sends the request message as the body.
        const p = body.params || (x.rpc ? {} : body);
        const m = p.message || {};
        if (m.taskId) x.taskIds.add(m.taskId);
        if (m.contextId) x.contextIds.add(m.contextId);
        if (typeof p.id === 'string') x.taskIds.add(p.id);
        if (m.parts) x.said = partsText(m.parts);
      }
      break;
    }
    case 'response':
      x.status = line.status; x.resHeaders = line.headers || {}; x.resBody = line.body || '';
      x.elapsedMs = line.elapsedMs; x.bytes = line.bodyBytes; x.outcome = line.outcome;
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
      break;
    case 'refused':
      x.status = line.status; x.refused = line.reason;
      break;
    case 'flagged':
      x.flags.push({ exchange: n, at: line.at, problem: line.problem, summary: line.summary, detail: line.detail });
      break;
  }
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

// ---- a view's exchanges, whole -----------------------------------------------------------------

// The Session for the open view, read again when the feed said it changed; null until first read.
function detailFor(key, numbers) {
  if (detail.key !== key) { detail.key = key; detail.session = null; detail.note = ''; detail.stale = true; }
  if (detail.stale && !detail.loading) load(key, numbers);
  return detail.session;
}

async function load(key, numbers) {
  detail.loading = true; detail.stale = false;
  const first = detail.session === null;
  try {
    const lines = await wholeLines(numbers);
    if (detail.key === key) { detail.session = read(lines); detail.note = ''; }
  } catch (e) {
    if (detail.key === key) detail.note = e.message || String(e);
  } finally {
    detail.loading = false;
    // A first reading is drawn at once; a refresh under load waits for the next redraw like the rest.
    if (first) redraw(); else { ui.dirty = true; schedule(); }
  }
}

async function wholeLines(numbers) {
  const wanted = [...new Set(numbers)].sort((a, b) => a - b).slice(-MAX_FETCHED);
  if (wanted.length === 0) return [];
  if (imported) return wanted.flatMap(n => imported.get(n) || []);
  const answer = await fetch('exchange?n=' + wanted.join(','));
  const text = await answer.text();
  if (!answer.ok) throw new Error(text.trim());
  return text.split('\n').map(parse).filter(Boolean);
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
  $('count-exchanges').textContent = index.exchanges.size;
  $('count-tasks').textContent = index.tasks.size;
  $('count-contexts').textContent = index.contexts.size;
  $('count-problems').textContent = index.problems.length;
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('active', b.dataset.view === ui.view);
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== 'view-' + ui.view;
  ({ exchanges: drawExchanges, tasks: drawTasks, contexts: drawContexts, problems: drawProblems, exchange: drawExchange })[ui.view]();
}

function matches(x) {
  const f = id => $(id).value.trim().toLowerCase();
  const method = f('filter-method'), status = f('filter-status'), taskId = f('filter-task'), ctx = f('filter-context');
  if (method && !exchangeLabel(x).toLowerCase().includes(method) && !x.target.toLowerCase().includes(method)) return false;
  if (status && !String(x.refused ? x.status + ' refused' : x.status).toLowerCase().includes(status)) return false;
  if (taskId && !x.taskIds.some(t => t.toLowerCase().includes(taskId))) return false;
  if (ctx && !x.contextIds.some(c => c.toLowerCase().includes(ctx))) return false;
  return true;
}

function row(x) {
  const status = x.refused ? x.status + ' (tap)' : x.status === null ? '…' : x.status + (x.open ? ' stream' : x.stream ? ' stream, ' + x.frames + ' frames' : '');
  return el('tr', { data: { exchange: x.n }, on: { click: () => show('exchange', x.n) } },
    el('td', { class: 'mono' }, x.n), el('td', { class: 'mono' }, clock(x.at)), el('td', {}, exchangeLabel(x)),
    el('td', { class: statusClass(x) }, status), el('td', { class: 'mono' }, x.elapsedMs === null ? '' : x.elapsedMs + ' ms'),
    el('td', { class: 'mono' }, x.bytes === null ? '' : x.bytes), el('td', { class: 'mono' }, x.taskIds.map(t => t.slice(0, 8)).join(' ')),
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
    for (const x of [...index.exchanges.values()].reverse()) {
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
      if (!old || !index.exchanges.has(n)) continue;
      const r = row(index.exchanges.get(n));
      old.replaceWith(r); list.rows.set(n, r);
    }
    const fresh = document.createDocumentFragment();
    for (const x of [...added].reverse()) {
      if (list.rows.has(x.n) || !index.exchanges.has(x.n)) continue;
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
    + (index.letGo ? (older ? ' ' : '') + index.letGo + ' older ones are no longer kept by the page (the tap\'s Export has what it keeps).' : '');
  // In the table's foot, not its body: the body holds exactly one row per listed exchange.
  const trailer = $('unlisted');
  trailer.hidden = !note;
  trailer.firstElementChild.textContent = note;
}

// The newest MAX_ROWS items, newest first, and the picked one wherever it is.
function drawList(listId, map, selected, pick, label) {
  const items = newest(map, MAX_ROWS);
  if (selected !== null && map.has(selected) && !items.includes(map.get(selected))) items.push(map.get(selected));
  const older = map.size - items.length;
  $(listId).replaceChildren(...items.map(item => el('li', { class: item.id === selected ? 'selected' : '', data: { id: item.id },
    on: { click: () => pick(item.id) } }, label(item))), ...(older > 0 ? [el('li', { class: 'dim' }, older + ' older not listed')] : []));
}

// Draws a view's detail only when its reading is new, so a person's opened <details> stay open.
function drawDetail(containerId, session, parts) {
  if (session !== null && detail.drawn.get(containerId) === session) return;
  detail.drawn.set(containerId, session);
  $(containerId).replaceChildren(...parts());
}

function waiting(what) {
  return [el('p', { class: 'dim' }, detail.note || 'Reading ' + what + ' from the tap…')];
}

function drawTasks() {
  drawList('task-list', index.tasks, ui.task, id => { ui.task = id; redraw(); }, t => t.id + '  ' + shortState(t.state));
  const t = index.tasks.get(ui.task);
  if (!t) { drawDetail('task-detail', null, () => [el('p', { class: 'dim' }, 'Pick a task.')]); return; }
  const s = detailFor('task:' + t.id, t.exchanges);
  const read = s && s.tasks.get(t.id);
  drawDetail('task-detail', s, () => read ? taskDetail(read) : s ? [el('p', { class: 'dim' }, 'The tap no longer keeps this task\'s exchanges.')] : waiting('the task'));
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
  drawList('context-list', index.contexts, ui.context, id => { ui.context = id; redraw(); }, c => c.id + '  (' + c.tasks.length + ')');
  const c = index.contexts.get(ui.context);
  if (!c) { drawDetail('context-detail', null, () => [el('p', { class: 'dim' }, 'Pick a context.')]); return; }
  const s = detailFor('context:' + c.id, c.tasks.flatMap(id => (index.tasks.get(id) || { exchanges: [] }).exchanges));
  drawDetail('context-detail', s, () => s ? contextDetail(s, c) : waiting('the context'));
}

function contextDetail(s, c) {
  const read = s.contexts.get(c.id) || { tasks: [] };
  // The index's tasks the tap no longer has the exchanges of are named still, in their place.
  const ids = [...read.tasks, ...c.tasks.filter(id => !read.tasks.includes(id))];
  return [el('h2', {}, 'Context ', el('span', { class: 'mono' }, c.id)), ...ids.map(id => {
    const t = s.tasks.get(id);
    if (!t) return el('div', { class: 'turn dim' }, id + ' (no longer kept)');
    const last = t.states[t.states.length - 1] || {};
    return el('div', { class: 'turn' },
      el('a', { class: 'mono', on: { click: () => { ui.task = id; show('tasks'); } } }, id), ' ', el('span', { class: 'dim' }, shortState(last.state)),
      ...t.said.map(m => el('div', { class: 'message user' }, el('span', { class: 'mono dim' }, clock(m.at) + ' '), 'user: ' + m.text)),
      ...t.messages.map(m => el('div', { class: 'message' }, el('span', { class: 'mono dim' }, clock(m.at) + ' '), 'agent: ' + m.text)),
      ...[...t.artifacts.values()].map(a => el('div', { class: 'message' }, 'artifact ' + a.name + ': ' + partsText(a.parts))));
  })];
}

function drawProblems() {
  $('problems').replaceChildren(...index.problems.map(p => el('li', { data: { problem: p.problem } },
    el('span', { class: 'mono dim' }, clock(p.at) + ' '), el('a', { on: { click: () => show('exchange', p.exchange) } }, '#' + p.exchange), ' ',
    el('strong', {}, p.summary), ' ', el('span', { class: 'dim' }, p.detail))));
}

function headerBlock(headers) {
  return el('div', { class: 'headers' }, ...Object.entries(headers).map(([k, v]) => el('div', {}, k + ': ' + v)));
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
  const s = detailFor('exchange:' + ui.exchange, [ui.exchange]);
  const x = s && s.exchanges.get(ui.exchange);
  drawDetail('raw', s, () => x ? rawExchange(x) : s ? [el('p', { class: 'dim' }, 'No such exchange.')] : waiting('the exchange'));
}

function rawExchange(x) {
  const curlText = curl(x);
  const parts = [el('h2', {}, '#' + x.n + ' ' + exchangeLabel(x)),
    ...x.flags.map(f => el('div', { class: 'status-bad' }, '⚠ ' + f.summary + ' (' + f.detail + ')')),
    el('h3', {}, 'Request'), el('div', { class: 'mono' }, x.method + ' ' + x.target + ' ' + x.protocol), headerBlock(x.reqHeaders),
    x.reqBody ? el('pre', { id: 'raw-request' }, pretty(x.reqBody)) : null,
    el('button', { id: 'copy-curl', on: { click: () => navigator.clipboard && navigator.clipboard.writeText(curlText) } }, 'Copy as curl'),
    el('pre', { id: 'curl' }, curlText),
    el('h3', {}, 'Response'),
    el('div', { class: statusClass(x) }, x.refused ? x.status + ' from the tap: ' + x.refused : x.status === null ? 'waiting…' : String(x.status)),
    headerBlock(x.resHeaders)];
  if (x.stream) {
    parts.push(el('table', { class: 'frames' }, el('tbody', {}, ...x.frames.map(f => el('tr', {},
      el('td', { class: 'mono' }, clock(f.at)), el('td', {}, 'frame ' + f.index + (f.id ? ' id ' + f.id : '') + (f.type !== 'message' ? ' event ' + f.type : '')),
      el('td', {}, el('pre', {}, pretty(f.data))))))));
  } else if (x.resBody) {
    parts.push(el('pre', { id: 'raw-response' }, pretty(x.resBody)));
  }
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
  // A message carries the summaries of one batch, one per data line.
  source.onmessage = e => {
    if (ui.importing) return;
    for (const text of e.data.split('\n')) { const line = parse(text); if (line) indexLine(line); }
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

// The tap reads the file (a HAR or JSON Lines) and answers its events as whole lines with their facts.
async function importFile(file) {
  const answer = await fetch('import', { method: 'POST', body: file, headers: { 'X-Legate-Inspector': '1' } });
  const text = await answer.text();
  if (!answer.ok) { banner(text); return; }
  ui.importing = true;
  reset();
  const lines = new Map();
  for (const l of text.split('\n')) {
    const line = parse(l);
    if (!line) continue;
    indexLine(line);
    if (!lines.has(line.exchange)) lines.set(line.exchange, []);
    lines.get(line.exchange).push(line);
  }
  imported = lines;
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
