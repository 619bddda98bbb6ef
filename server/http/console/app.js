// The gridstar web console: the maps, a map view that pans and zooms over
// server-drawn tiles, paths of two algorithms side by side, watched agents
// and the service's own figures. Plain script, no build step; it talks to
// the HTTP/JSON API of the server that served it (same origin) and puts
// every value from the server into the page as text, never as markup.
'use strict';

(() => {
  const TILE = 256;
  const ALGORITHMS = [
    ['ALGORITHM_AUTO', 'auto'], ['ALGORITHM_ASTAR', 'astar'],
    ['ALGORITHM_JPS', 'jps'], ['ALGORITHM_JPS_PLUS', 'jps+'],
    ['ALGORITHM_DIJKSTRA', 'dijkstra'], ['ALGORITHM_ALT', 'alt'],
    ['ALGORITHM_BIDIRECTIONAL', 'bidirectional'],
    ['ALGORITHM_SUBGOAL', 'subgoal'], ['ALGORITHM_CONTRACTION', 'contraction'],
    ['ALGORITHM_HPA', 'hpa'],
    ['ALGORITHM_THETA', 'theta'], ['ALGORITHM_WEIGHTED', 'weighted'],
    ['ALGORITHM_BASELINE', 'baseline']
  ];
  const POLICIES = [
    ['DIAGONAL_POLICY_UNSPECIFIED', 'the map\'s'],
    ['DIAGONAL_POLICY_NO_CORNER_CUTTING', 'no corner cutting'],
    ['DIAGONAL_POLICY_NEVER', 'never'],
    ['DIAGONAL_POLICY_ALLOW_CORNER_CUTTING', 'allow corner cutting']
  ];
  const COLOURS = {
    a: 'rgb(40,170,60)',
    b: 'rgb(106,63,200)',
    start: 'rgb(0,200,230)',
    goal: 'rgb(220,0,200)',
    traceFrom: [40, 90, 230],
    traceTo: [250, 160, 30]
  };
  const LEGEND = [
    ['wall', 'rgb(32,32,32)'],
    [
      'ground, cost 1 to the map\'s dearest',
      'linear-gradient(90deg,#fff,rgb(150,110,70))'
    ],
    ['swamp', 'rgb(185,175,120)'],
    ['water', 'rgb(80,140,215)'],
    ['trees', 'rgb(40,95,50)'],
    ['areas 4 and up', 'rgb(150,100,190)'],
    ['off the map', 'rgb(245,245,240)'],
    ['path A', COLOURS.a],
    ['path B', COLOURS.b],
    [
      'expanded, first to last',
      'linear-gradient(90deg,rgb(40,90,230),rgb(250,160,30))'
    ],
    ['start', COLOURS.start],
    ['goal', COLOURS.goal],
    ['watched agents and their paths', 'rgb(230,120,20)'],
  ];

  const $ = (id) => document.getElementById(id);
  const canvas = $('view');
  const ctx = canvas.getContext('2d');
  const state = {
    key: sessionStorage.getItem('gridstar-key') || '',
    maps: [],
    map: null,
    version: '',
    tiles: new Map(),
    x: 0,
    y: 0,
    span: 64,  // Top-left cell of the view and cells per tile.
    start: null,
    goal: null,
    answers: {a: null, b: null},
    watch: null,
    metrics: null,
    agents: [],
    redraw: false,
  };
  window.gridstarConsole = state;  // For tests, panels.js and the curious.

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function status(text, error) {
    const s = $('status');
    s.textContent = text;
    s.className = error ? 'error' : '';
  }
  function headers() {
    const h = {'Content-Type': 'application/json'};
    if (state.key) h.Authorization = `Bearer ${state.key}`;
    return h;
  }
  async function api(method, body) {
    const r = await fetch(
        `/gridstar.v1.Pathfinding/${method}`,
        {method: 'POST', headers: headers(), body: JSON.stringify(body)});
    const json = await r.json().catch(() => ({}));
    if (!r.ok)
      throw new Error(
          json.error ? `${json.error.status}: ${json.error.message}` :
                       `HTTP ${r.status}`);
    return json;
  }

  // What panels.js (the watch stream, every client's agents, the figures)
  // shares.
  state.lib = {$, el, status, headers};

  // ---- Maps.

  async function refreshMaps() {
    let list;
    try {
      list = (await api('ListMaps', {})).maps;
    } catch (e) {
      status(String(e.message), true);
      return;
    }
    state.maps = list;
    const ul = $('maps');
    ul.replaceChildren();
    for (const m of list) {
      const li = el('li');
      li.dataset.id = m.id;
      li.append(el('strong', m.id));
      const derived = m.derived.map((d) => d.name).join(', ');
      li.append(
          el('span',
             `v${m.version} · ${m.width} x ${m.height}${
                 derived ? ` · ${derived}` : ''}`,
             'detail'));
      if (state.map && m.id === state.map.id) li.classList.add('current');
      li.addEventListener('click', () => selectMap(m));
      ul.append(li);
    }
    if (state.map) {
      const now = list.find((m) => m.id === state.map.id);
      if (!now) {
        status(`map ${state.map.id} was deleted`, true);
      } else if (now.version !== state.version) {
        // Another client changed it: drop its tiles, ask the paths again.
        state.map = now;
        state.version = now.version;
        status(`${now.id}: version ${now.version}`);
        state.tiles.clear();
        state.redraw = true;
        if (state.start && state.goal) findPaths();
      }
    } else if (list.length) {
      selectMap(list[0]);
    }
  }

  function selectMap(m) {
    state.map = m;
    state.version = m.version;
    state.tiles.clear();
    state.start = state.goal = null;
    state.answers = {a: null, b: null};
    showAnswers();
    // The whole map in view: the smallest power-of-two span that fits.
    const cellsAcross = Math.max(
        m.width / (canvas.width / TILE), m.height / (canvas.height / TILE));
    state.span =
        2 ** Math.max(2, Math.ceil(Math.log2(Math.max(1, cellsAcross))));
    // Centred in the view.
    state.x = (m.width - canvas.width / scale()) / 2;
    state.y = (m.height - canvas.height / scale()) / 2;
    for (const li of $('maps').children)
      li.classList.toggle('current', li.dataset.id === m.id);
    status(`${m.id}: version ${m.version}`);
    state.redraw = true;
  }

  // ---- The view.

  const scale = () => TILE / state.span;  // Pixels per cell.
  function tileKey(i, j) {
    return `${state.map.id}|${state.version}|${state.span}|${i}|${j}`;
  }

  function tile(i, j) {
    const key = tileKey(i, j);
    let t = state.tiles.get(key);
    if (t) return t;
    t = {bitmap: null};
    state.tiles.set(key, t);
    const q = new URLSearchParams({
      map: state.map.id,
      x0: i * state.span,
      y0: j * state.span,
      span: state.span,
      px: TILE
    });
    fetch(`/console/tile?${q}`, {headers: headers()})
        .then(async (r) => {
          if (!r.ok)
            throw new Error(
                ((await r.json().catch(() => ({}))).error || {}).message ||
                `HTTP ${r.status}`);
          return createImageBitmap(await r.blob());
        })
        .then((bitmap) => {
          t.bitmap = bitmap;
          state.redraw = true;
        })
        .catch((e) => {
          status(`tile: ${e.message}`, true);
        });
    return t;
  }

  function draw() {
    state.redraw = false;
    ctx.fillStyle = 'rgb(245,245,240)';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!state.map) return;
    const s = scale();
    const i0 = Math.floor(state.x / state.span),
          j0 = Math.floor(state.y / state.span);
    const i1 = Math.floor((state.x + canvas.width / s) / state.span);
    const j1 = Math.floor((state.y + canvas.height / s) / state.span);
    ctx.imageSmoothingEnabled = false;
    for (let j = j0; j <= j1; ++j) {
      for (let i = i0; i <= i1; ++i) {
        if (i < 0 || j < 0 || i * state.span >= state.map.width ||
            j * state.span >= state.map.height)
          continue;
        const t = tile(i, j);
        if (t.bitmap) {
          ctx.drawImage(
              t.bitmap, (i * state.span - state.x) * s,
              (j * state.span - state.y) * s, TILE, TILE);
        }
      }
    }
    const centre =
        (c) => [(c[0] + 0.5 - state.x) * s, (c[1] + 0.5 - state.y) * s];
    // A line through packed cells [x0, y0, x1, y1, ...].
    const polyline = (packed, colour, width, dash) => {
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.lineJoin = 'round';
      ctx.setLineDash(dash);
      ctx.beginPath();
      for (let k = 0; k + 1 < packed.length; k += 2) {
        const [px, py] = centre([packed[k], packed[k + 1]]);
        if (k === 0)
          ctx.moveTo(px, py);
        else
          ctx.lineTo(px, py);
      }
      ctx.stroke();
      ctx.setLineDash([]);
    };
    for (const side of ['a', 'b']) {
      const answer = state.answers[side];
      if (!answer || answer.error) continue;
      const trace = answer.trace || [];
      for (let k = 0; k + 1 < trace.length; k += 2) {
        const f = (k / 2) / Math.max(1, trace.length / 2 - 1);
        const c = COLOURS.traceFrom.map(
            (v, n) => Math.round(v + (COLOURS.traceTo[n] - v) * f));
        ctx.fillStyle = `rgba(${c[0]},${c[1]},${c[2]},0.55)`;
        const [px, py] = centre([trace[k], trace[k + 1]]);
        const r = Math.max(1, s * 0.3);
        ctx.fillRect(px - r, py - r, 2 * r, 2 * r);
      }
      const cells = answer.waypoints && answer.waypoints.length ?
          answer.waypoints :
          answer.cells;
      polyline(cells, COLOURS[side], Math.max(2, s * 0.35), []);
    }
    for (const [cell, colour] of [
             [state.start, COLOURS.start], [state.goal, COLOURS.goal]]) {
      if (!cell) continue;
      const [px, py] = centre(cell);
      const r = Math.max(4, s * 0.6);
      ctx.fillStyle = colour;
      ctx.strokeStyle = 'black';
      ctx.lineWidth = 1;
      ctx.fillRect(px - r, py - r, 2 * r, 2 * r);
      ctx.strokeRect(px - r, py - r, 2 * r, 2 * r);
    }
    // Every client's watched agents: the rest of each path, and where it is.
    for (const agent of state.agents) {
      polyline(
          agent.remaining, 'rgba(230,120,20,0.85)', Math.max(1.5, s * 0.2),
          [3, 3]);
      const [px, py] = centre([agent.position.x, agent.position.y]);
      ctx.fillStyle = 'rgb(230,120,20)';
      ctx.beginPath();
      ctx.arc(px, py, Math.max(3, s * 0.45), 0, 2 * Math.PI);
      ctx.fill();
    }
    for (const agent of state.watch ? state.watch.agents.values() : []) {
      if (!agent.cells) continue;
      polyline(
          agent.cells, 'rgba(215,35,35,0.8)', Math.max(1.5, s * 0.2), [6, 4]);
    }
  }

  function cellAt(event) {
    const rect = canvas.getBoundingClientRect();
    const px = (event.clientX - rect.left) * (canvas.width / rect.width);
    const py = (event.clientY - rect.top) * (canvas.height / rect.height);
    return [
      Math.floor(state.x + px / scale()), Math.floor(state.y + py / scale())
    ];
  }

  let drag = null;
  canvas.addEventListener('mousedown', (e) => {
    drag = {x: e.clientX, y: e.clientY, moved: false};
  });
  window.addEventListener('mouseup', (e) => {
    if (drag && !drag.moved && e.target === canvas && state.map)
      pick(cellAt(e));
    drag = null;
  });
  canvas.addEventListener('mousemove', (e) => {
    if (state.map) {
      const [x, y] = cellAt(e);
      $('where').textContent =
          x >= 0 && y >= 0 && x < state.map.width && y < state.map.height ?
          `(${x}, ${y})` :
          '';
    }
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (!drag.moved) return;
    const rect = canvas.getBoundingClientRect();
    state.x -= dx * (canvas.width / rect.width) / scale();
    state.y -= dy * (canvas.height / rect.height) / scale();
    drag.x = e.clientX;
    drag.y = e.clientY;
    state.redraw = true;
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (!state.map) return;
    const next = e.deltaY < 0 ? state.span / 2 : state.span * 2;
    // Keep the cell under the pointer where it is.
    const rect = canvas.getBoundingClientRect();
    const px = (e.clientX - rect.left) * (canvas.width / rect.width);
    const py = (e.clientY - rect.top) * (canvas.height / rect.height);
    const cx = state.x + px / scale(), cy = state.y + py / scale();
    state.span = Math.min(2 ** 24, Math.max(4, next));
    state.x = cx - px / scale();
    state.y = cy - py / scale();
    state.redraw = true;
  }, {passive: false});

  // ---- Paths.

  function pick(cell) {
    if (!state.start || state.goal) {
      state.start = cell;
      state.goal = null;
      state.answers = {a: null, b: null};
      showAnswers();
    } else {
      state.goal = cell;
      findPaths();
    }
    state.redraw = true;
  }

  async function ask(side, algorithm) {
    const body = {
      mapId: state.map.id,
      start: {x: state.start[0], y: state.start[1]},
      goal: {x: state.goal[0], y: state.goal[1]},
      algorithm,
      diagonal: $('diagonal').value,
      trace: $('trace').checked,
      smooth: algorithm === 'ALGORITHM_THETA'
    };
    try {
      state.answers[side] = await api('FindPath', body);
    } catch (e) {
      state.answers[side] = {error: e.message};
    }
  }

  async function findPaths() {
    if (!state.map || !state.start || !state.goal) return;
    const b = $('algo-b').value;
    await Promise.all([
      ask('a', $('algo-a').value), b ? ask('b', b) : (state.answers.b = null)
    ]);
    showAnswers();
    state.redraw = true;
  }

  function showAnswers() {
    for (const side of ['a', 'b']) {
      const row = $(`row-${side}`), answer = state.answers[side];
      const set = (cls, text) => {
        row.querySelector(`.${cls}`).textContent = text;
      };
      if (!answer) {
        for (const cls
                 of ['algo', 'cost', 'cells', 'expanded', 'micros', 'version',
                     'note'])
          set(cls, '');
        continue;
      }
      if (answer.error) {
        for (const cls
                 of ['algo', 'cost', 'cells', 'expanded', 'micros', 'version'])
          set(cls, '');
        set('note', answer.error);
        continue;
      }
      const name =
          (ALGORITHMS.find((a) => a[0] === answer.algorithm) ||
           [0, answer.algorithm])[1];
      const anyAngle = answer.algorithm === 'ALGORITHM_THETA';
      set('algo', name);
      set('cost', (anyAngle ? answer.smoothedCost : answer.cost).toFixed(3));
      set('cells', answer.cells.length / 2);
      set('expanded', answer.expanded);
      set('micros', answer.searchMicros.toFixed(0));
      set('version', answer.mapVersion);
      set('note', answer.note + (answer.partial ? ' (partial)' : ''));
    }
    $('watch').disabled = !(state.answers.a && !state.answers.a.error);
  }

  // ---- Start.

  for (const [select, options, fallback] of [
           [$('algo-a'), ALGORITHMS, 'ALGORITHM_AUTO'],
           [$('algo-b'), [['', 'none'], ...ALGORITHMS], ''],
           [$('diagonal'), POLICIES, 'DIAGONAL_POLICY_UNSPECIFIED']]) {
    for (const [value, label] of options) {
      const o = el('option', label);
      o.value = value;
      select.append(o);
    }
    select.value = fallback;
    select.addEventListener('change', findPaths);
  }
  $('trace').addEventListener('change', findPaths);
  $('clear').addEventListener('click', () => {
    state.start = state.goal = null;
    state.answers = {a: null, b: null};
    showAnswers();
    state.redraw = true;
  });
  $('key').value = state.key;
  $('key').addEventListener('change', () => {
    state.key = $('key').value.trim();
    sessionStorage.setItem('gridstar-key', state.key);
    state.tiles.clear();
    refreshMaps();
  });
  const legend = $('legend');
  for (const [label, colour] of LEGEND) {
    const li = el('li');
    const swatch = el('span', undefined, 'swatch');
    swatch.style.background = colour;
    li.append(swatch, document.createTextNode(label));
    legend.append(li);
  }
  (function frame() {
    if (state.redraw) draw();
    requestAnimationFrame(frame);
  })();
  refreshMaps();
  setInterval(refreshMaps, 1000);
})();
