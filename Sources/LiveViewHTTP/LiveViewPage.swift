/// The page at `/`: the live stream, the view's state, navigation, and the points of interest
/// nearest first, each a button that selects it. Served from the binary; no external assets, no
/// framework. It reads `/state` once a second and follows `/events` for changes in between.
enum LiveViewPage {
    static let html = Array(
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>arcapture</title>
        <link rel="icon" href="data:,">
        <style>
        body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: #111; color: #eee; display: flex; flex-wrap: wrap; }
        main { flex: 3 1 480px; padding: 8px; }
        main img { width: 100%; height: auto; background: #000; display: block; }
        aside { flex: 1 1 260px; padding: 8px 12px; }
        h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .08em; color: #9ab; margin: 14px 0 4px; }
        dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0; }
        dt { color: #9ab; } dd { margin: 0; font-variant-numeric: tabular-nums; }
        ul { list-style: none; padding: 0; margin: 0; }
        li button { width: 100%; text-align: left; background: #222; color: #eee; border: 1px solid #333; padding: 5px 8px; margin: 2px 0; cursor: pointer; font: inherit; }
        li button.selected { background: #f5c400; color: #111; border-color: #f5c400; }
        #clear { margin-top: 6px; }
        </style>
        </head>
        <body>
        <main><img id="stream" src="stream?key=page" alt="the camera's annotated stream"></main>
        <aside>
        <h2>Status</h2>
        <dl>
        <dt>Phase</dt><dd id="phase">…</dd>
        <dt>Position</dt><dd id="coordinate">…</dd>
        <dt>Location</dt><dd id="location">…</dd>
        <dt>Rate</dt><dd id="fps">…</dd>
        <dt>Frames</dt><dd id="frames">…</dd>
        <dt>Clients</dt><dd id="clients">…</dd>
        <dt>Updates</dt><dd id="updates">connecting</dd>
        </dl>
        <h2>Navigation</h2>
        <dl id="navigation"><dt>Route</dt><dd>not navigating</dd></dl>
        <h2>Points of interest</h2>
        <ul id="points"></ul>
        <button id="clear">Clear selection</button>
        </aside>
        <script>
        "use strict";
        const text = (id, value) => { document.getElementById(id).textContent = value; };
        const metres = (m) => m == null ? "" : (m < 1000 ? Math.round(m) + " m" : (m / 1000).toFixed(1) + " km");
        let current = null;
        async function select(ids) {
          await fetch("select", ids.length ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ids }) } : { method: "DELETE" });
          refresh();
        }
        function render(state) {
          text("phase", state.phase);
          const fix = state.location && state.location.fix;
          text("coordinate", fix ? fix.lat.toFixed(6) + ", " + fix.lon.toFixed(6) : "no fix yet");
          text("location", state.location ? state.location.source + ": " + state.location.status : "none");
          text("fps", state.fps.toFixed(1) + " fps");
          text("frames", state.frames.published + " sent, " + state.frames.annotated + " annotated, " + state.frames.dropped + " dropped");
          text("clients", String(state.clients.length));
          const nav = document.getElementById("navigation");
          nav.replaceChildren();
          const row = (label, value) => { const dt = document.createElement("dt"); dt.textContent = label; const dd = document.createElement("dd"); dd.textContent = value; nav.append(dt, dd); };
          if (state.navigation) {
            row("Remaining", metres(state.navigation.remaining_m));
            row("Next", state.navigation.next_manoeuvre + " in " + metres(state.navigation.to_manoeuvre_m));
            if (state.navigation.off_route) row("", "off route");
          } else {
            row("Route", "not navigating");
          }
          const chosen = new Set(state.selected);
          const list = document.getElementById("points");
          list.replaceChildren(...state.points.slice(0, 30).map((point) => {
            const item = document.createElement("li");
            const button = document.createElement("button");
            button.textContent = point.name + (point.distance_m == null ? "" : " · " + metres(point.distance_m));
            button.dataset.id = point.id;
            if (chosen.has(point.id)) button.className = "selected";
            button.onclick = () => select(chosen.has(point.id) ? state.selected.filter((id) => id !== point.id) : state.selected.concat([point.id]));
            item.append(button);
            return item;
          }));
        }
        async function refresh() {
          try { current = await (await fetch("state", { cache: "no-store" })).json(); render(current); } catch (error) { text("phase", "server not reachable"); }
        }
        // Changes of phase, position, navigation and selection arrive at once through /events;
        // /state, read once a second, brings the rest (rates, counts, distances).
        const events = new EventSource("events");
        events.onopen = () => text("updates", "live");
        events.onerror = () => text("updates", "reconnecting");
        for (const kind of ["phase", "coordinate", "navigation", "selection"]) {
          events.addEventListener(kind, (event) => {
            if (current) { Object.assign(current, JSON.parse(event.data)); render(current); }
          });
        }
        document.getElementById("clear").onclick = () => select([]);
        refresh();
        setInterval(refresh, 1000);
        </script>
        </body>
        </html>

        """.utf8)
}
