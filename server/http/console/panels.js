// The web console's panels (app.js draws the map and the paths): agents
// watched from here over WatchPaths' server-sent events, every client's
// watched agents on the map, and the service's figures. Loaded after app.js,
// whose state and helpers it uses; every value goes into the page as text.
'use strict';

(() => {
  const state = window.gridstarConsole;
  const {$, el, status, headers} = state.lib;

  // ---- Watched agents (WatchPaths as server-sent events).

  async function watchPath() {
    if (!state.watch) {
      state.watch = {id: null, agents: new Map(), next: 1};
      const r = await fetch(
          '/gridstar.v1.Pathfinding/WatchPaths',
          {method: 'POST', headers: headers(), body: '[]'});
      if (!r.ok) {
        status(`watch: HTTP ${r.status}`, true);
        state.watch = null;
        return;
      }
      readEvents(r.body.getReader());
      while (!state.watch.id) await new Promise((f) => setTimeout(f, 20));
    }
    const agentId = state.watch.next++;
    state.watch.agents.set(agentId, {cells: null});
    await fetch(
        `/gridstar.v1.Pathfinding/WatchPaths?stream=${
            encodeURIComponent(state.watch.id)}`,
        {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({
            requestId: agentId,
            agentId,
            action: 'WATCH_ACTION_ADD',
            path: {
              mapId: state.map.id,
              start: {x: state.start[0], y: state.start[1]},
              goal: {x: state.goal[0], y: state.goal[1]},
              algorithm: $('algo-a').value
            }
          }),
        });
  }

  async function readEvents(reader) {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (e) {
        status(`watch: the stream ended (${e.message})`, true);
        break;
      }
      const {value, done} = chunk;
      if (done) break;
      buffer += decoder.decode(value, {stream: true});
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n')
                         .filter((l) => l.startsWith('data:'))
                         .map((l) => l.slice(5))
                         .join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        if (event.streamId) {
          state.watch.id = event.streamId;
          continue;
        }
        const agent = state.watch.agents.get(Number(event.agentId));
        if (agent && event.path && event.path.cells.length)
          agent.cells = event.path.cells;
        const reason = String(event.reason || '')
                           .replace('WATCH_REASON_', '')
                           .toLowerCase();
        const li = el(
            'li',
            `agent ${event.agentId}: ${reason}` +
                (event.path ? ` · cost ${Number(event.path.cost).toFixed(3)}` :
                              '') +
                (event.message ? ` · ${event.message}` : '') +
                ` · v${
                    event.path && event.path.mapVersion !== '0' ?
                        event.path.mapVersion :
                        event.mapVersion}`);
        li.dataset.reason = reason;
        $('events').prepend(li);
        state.redraw = true;
      }
    }
    state.watch = null;
  }

  // ---- Every client's watched agents on the map (GET /console/agents).

  async function refreshAgents() {
    if (!state.map) return;
    let list;
    try {
      const r = await fetch(
          `/console/agents?map=${encodeURIComponent(state.map.id)}`,
          {headers: headers()});
      if (!r.ok) return;
      list = (await r.json()).agents;
    } catch (e) {
      return;
    }
    const before = JSON.stringify(state.agents);
    state.agents = list;
    if (JSON.stringify(list) === before) return;
    const ul = $('agents');
    ul.replaceChildren();
    for (const a of list) {
      const li =
          el('li',
             `agent ${a.agentId} at (${a.position.x}, ${a.position.y}) to ` +
                 `(${a.goal.x}, ${a.goal.y})` +
                 (a.noPath ? ' · no path' :
                             ` · ${a.remaining.length / 2} cells left`) +
                 (a.blocked ? ` · replanned after ${a.blocked} block` +
                          (a.blocked > 1 ? 's' : '') :
                              '') +
                 (a.searching ? ' · searching' : ''));
      li.dataset.agent = a.agentId;
      li.dataset.blocked = a.blocked;
      ul.append(li);
    }
    state.redraw = true;
  }

  // ---- The service's figures (its Prometheus metrics, differenced).

  function parseMetrics(text) {
    const out = new Map();
    for (const line of text.split('\n')) {
      if (!line || line[0] === '#') continue;
      const m = /^([a-z_:]+)(\{[^}]*\})? ([^ ]+)/.exec(line);
      if (m) out.set(m[1] + (m[2] || ''), Number(m[3]));
    }
    return out;
  }
  function sum(metrics, prefix, filter) {
    let total = 0;
    for (const [name, v] of metrics)
      if (name.startsWith(prefix) && (!filter || filter(name))) total += v;
    return total;
  }
  function quantile(now, before, q) {
    // gridstar_request_duration_seconds buckets, all methods, since `before`.
    const buckets = new Map();
    for (const [name, v] of now) {
      const m =
          /^gridstar_request_duration_seconds_bucket\{.*le="([^"]+)"/.exec(
              name);
      if (!m) continue;
      const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
      buckets.set(
          le, (buckets.get(le) || 0) + v - ((before && before.get(name)) || 0));
    }
    const sorted = [...buckets.entries()].sort((x, y) => x[0] - y[0]);
    const total = sorted.length ? sorted[sorted.length - 1][1] : 0;
    if (!total) return null;
    for (const [le, count] of sorted)
      if (count >= q * total) return le;
    return null;
  }
  async function refreshMetrics() {
    let now;
    try {
      const r = await fetch('/console/metrics', {headers: headers()});
      if (!r.ok) return;
      now = parseMetrics(await r.text());
    } catch (e) {
      return;
    }
    const previous = state.metrics;
    const t = performance.now();
    state.metrics = {values: now, at: t};
    const requests = sum(now, 'gridstar_requests_total');
    const rate = previous ?
        (requests - sum(previous.values, 'gridstar_requests_total')) /
            ((t - previous.at) / 1000) :
        0;
    const p50 = quantile(now, previous && previous.values, 0.5);
    const p99 = quantile(now, previous && previous.values, 0.99);
    const ms = (v) =>
        (v === null         ? '–' :
             v === Infinity ? '> 10 s' :
                              `≤ ${(v * 1000).toPrecision(2)} ms`);
    const rows = [
      ['requests', requests], ['per second', rate.toFixed(1)],
      ['latency p50', ms(p50)], ['latency p99', ms(p99)],
      ['in flight', now.get('gridstar_requests_in_flight') ?? 0],
      ['queued searches', now.get('gridstar_queue_depth') ?? 0],
      ['busy workers', now.get('gridstar_busy_workers') ?? 0],
      ['maps', now.get('gridstar_maps') ?? 0]
    ];
    const dl = $('metrics');
    dl.replaceChildren();
    for (const [k, v] of rows) dl.append(el('dt', k), el('dd', v));
  }

  $('watch').addEventListener('click', () => {
    watchPath().catch((e) => status(`watch: ${e.message}`, true));
  });
  refreshMetrics();
  setInterval(refreshAgents, 1000);
  setInterval(refreshMetrics, 2000);
})();
