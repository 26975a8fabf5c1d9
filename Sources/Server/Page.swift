/// The web app's one page: no build step, no CDN, works offline. Embedded, so
/// no request path ever reaches the file system.
enum Page {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pricecam</title>
        <style>
        :root { --fg:#1b1f24; --muted:#5c6670; --line:#d5dbe1; --accent:#0b6bcb; --bad:#b3261e; --ok:#1e7d32; }
        * { box-sizing: border-box; }
        body { margin:0; font:15px/1.45 system-ui, sans-serif; color:var(--fg); background:#f6f8fa; }
        header { display:flex; gap:1rem; align-items:center; padding:.6rem 1rem; background:#fff; border-bottom:1px solid var(--line); }
        header h1 { font-size:1.1rem; margin:0; }
        nav button { border:0; background:none; padding:.5rem .8rem; font:inherit; cursor:pointer; border-bottom:3px solid transparent; }
        nav button[aria-selected=true] { border-color:var(--accent); color:var(--accent); }
        main { max-width:1000px; margin:1rem auto; padding:0 1rem; }
        section { background:#fff; border:1px solid var(--line); border-radius:8px; padding:1rem; }
        label { display:block; margin:.6rem 0 .2rem; font-weight:600; }
        input[type=text] { font:inherit; padding:.4rem .5rem; width:100%; max-width:20rem; border:1px solid var(--line); border-radius:4px; }
        input[aria-invalid=true] { border-color:var(--bad); }
        .msg { min-height:1.2em; color:var(--bad); font-size:.9rem; }
        .warn { color:#8a5300; }
        button.primary { margin-top:1rem; background:var(--accent); color:#fff; border:0; border-radius:4px; padding:.5rem 1rem; font:inherit; cursor:pointer; }
        button.primary:disabled { background:#9bb8d6; cursor:not-allowed; }
        table { border-collapse:collapse; width:100%; }
        th, td { text-align:left; padding:.3rem .5rem; border-bottom:1px solid var(--line); }
        td.num { text-align:right; font-variant-numeric:tabular-nums; }
        .muted { color:var(--muted); }
        #frame { max-width:100%; border:1px solid var(--line); background:#222; min-height:120px; }
        #scancanvas { max-width:100%; border:1px solid var(--line); }
        #drop { border:2px dashed var(--line); border-radius:8px; padding:1.5rem; text-align:center; }
        .stats span { margin-right:1.2rem; }
        .row { display:flex; gap:.6rem; flex-wrap:wrap; align-items:end; }
        </style>
        </head>
        <body>
        <header><h1>pricecam</h1>
        <nav id="tabs" hidden>
        <button data-tab="camera" aria-selected="true">Camera</button>
        <button data-tab="scan">Scan</button>
        <button data-tab="history">History</button>
        <button data-tab="settings">Settings</button>
        </nav></header>
        <main>
        <section id="setup" hidden>
        <h2 id="setup-title">Set up pricecam</h2>
        <p class="muted">Which currency are the prices in, and what is one unit worth in your home currency?</p>
        <form id="settings-form" autocomplete="off">
        <label for="currency">Currency code</label><input type="text" id="currency" name="currency" placeholder="JPY">
        <div class="msg" id="currency-msg"></div>
        <label for="rate">Rate (home-currency units per 1 unit)</label><input type="text" id="rate" name="rate" placeholder="0.0061">
        <div class="msg" id="rate-msg"></div>
        <label for="home">Home currency (optional)</label><input type="text" id="home" name="home" placeholder="EUR">
        <div class="msg" id="home-msg"></div>
        <button class="primary" id="save" type="submit" disabled>Save</button>
        <span id="saved" class="muted"></span>
        </form>
        <p id="stale" class="warn"></p>
        </section>

        <section id="camera" hidden>
        <div class="stats"><span>fps <b id="fps">–</b></span><span>latency p50 <b id="p50">–</b> ms</span><span>p99 <b id="p99">–</b> ms</span><span>dropped <b id="dropped">–</b></span></div>
        <p id="camera-msg" class="muted"></p>
        <img id="frame" alt="camera frame with the prices found">
        <h3>Prices in view</h3>
        <table><thead><tr><th>read</th><th>amount</th><th>converted</th></tr></thead><tbody id="live-prices"></tbody></table>
        </section>

        <section id="scan" hidden>
        <div id="drop"><p>Drop a photo here, or</p><input type="file" id="file" accept="image/*"></div>
        <p id="scan-msg" class="msg"></p>
        <canvas id="scancanvas" width="0" height="0"></canvas>
        <table><thead><tr><th>read</th><th>amount</th><th>converted</th></tr></thead><tbody id="scan-prices"></tbody></table>
        </section>

        <section id="history" hidden>
        <div class="row">
        <div><label for="h-currency">Currency</label><input type="text" id="h-currency" placeholder="all"></div>
        <div><label for="h-q">Text</label><input type="text" id="h-q" placeholder="source or text read"></div>
        <a id="export-csv" href="api/v1/history/export?format=csv">Export CSV</a>
        <a id="export-jsonl" href="api/v1/history/export?format=jsonl">Export JSON Lines</a>
        <button id="clear" type="button">Clear history…</button>
        </div>
        <p id="h-stats" class="muted"></p>
        <table><thead><tr><th>time</th><th>source</th><th>read</th><th>amount</th><th>converted</th></tr></thead><tbody id="h-rows"></tbody></table>
        <p><button id="h-prev" type="button">Newer</button> <span id="h-page"></span> <button id="h-next" type="button">Older</button></p>
        </section>
        </main>
        <script>
        "use strict";
        const token = new URLSearchParams(location.hash.slice(1)).get("token");
        const $ = (id) => document.getElementById(id);
        function api(path, options = {}) {
          options.headers = Object.assign({}, options.headers || {}, token ? { Authorization: "Bearer " + token } : {});
          return fetch("api/v1/" + path, options);
        }
        function withToken(url) { return token ? url + (url.includes("?") ? "&" : "?") + "access_token=" + encodeURIComponent(token) : url; }
        function cell(text, cls) { const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; return td; }
        function priceRows(body, prices) {
          body.replaceChildren(...prices.map((p) => {
            const tr = document.createElement("tr");
            const conv = p.converted != null ? p.converted + " " + (p.target || "") : "–";
            tr.append(cell(p.text), cell(p.amount + " " + (p.currency || ""), "num"), cell(conv, "num"));
            return tr;
          }));
        }

        // Settings: checked by the server as the user types (the same rules and messages as `pricecam setup`).
        let configured = false, checkSeq = 0;
        async function checkSettings() {
          const seq = ++checkSeq;
          const q = new URLSearchParams({ currency: $("currency").value, rate: $("rate").value, home: $("home").value });
          const r = await api("settings/check?" + q);
          if (seq !== checkSeq || !r.ok) return;
          const result = await r.json();
          for (const f of ["currency", "rate", "home"]) {
            const e = result.errors.find((x) => x.field === f);
            const typed = $(f).value.trim() !== "";
            $(f + "-msg").textContent = e && typed ? e.message : "";
            $(f).setAttribute("aria-invalid", e && typed ? "true" : "false");
          }
          $("save").disabled = !result.valid;
        }
        for (const f of ["currency", "rate", "home"]) $(f).addEventListener("input", () => { $("save").disabled = true; $("saved").textContent = ""; checkSettings(); });
        $("settings-form").addEventListener("submit", async (ev) => {
          ev.preventDefault();
          const r = await api("settings", { method: "PUT", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ currency: $("currency").value, rate: $("rate").value, home: $("home").value || null }) });
          const body = await r.json();
          if (!r.ok) { $((body.error.field || "rate") + "-msg").textContent = body.error.message; return; }
          $("saved").textContent = "Saved.";
          showSettings(body);
        });
        function showSettings(s) {
          configured = s.configured;
          $("tabs").hidden = !configured;
          $("setup-title").textContent = configured ? "Settings" : "Set up pricecam";
          if (configured) {
            $("currency").value = s.currency; $("rate").value = s.rate; $("home").value = s.home || "";
            $("stale").textContent = s.stale_warning ? "Warning: " + s.stale_warning : "";
          }
          show(configured ? currentTab : "setup");
        }

        // Tabs.
        let currentTab = "camera";
        function show(tab) {
          if (tab !== "setup") currentTab = tab;
          const visible = tab === "settings" ? "setup" : tab;
          for (const id of ["setup", "camera", "scan", "history"]) $(id).hidden = id !== visible;
          for (const b of document.querySelectorAll("nav button")) b.setAttribute("aria-selected", b.dataset.tab === tab);
          if (tab === "history") loadHistory();
          if (tab === "camera") startCamera(); else stopCamera();
        }
        for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => show(b.dataset.tab));

        // Camera: the live feed over a WebSocket; the newest frame is fetched when the previous one has loaded.
        let socket = null, frameBusy = false;
        function startCamera() {
          if (socket) return;
          const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/[^/]*$/, "") + "api/v1/live";
          socket = new WebSocket(withToken(url));
          socket.onmessage = (ev) => {
            const m = JSON.parse(ev.data);
            $("fps").textContent = m.fps; $("p50").textContent = m.latency_ms.p50; $("p99").textContent = m.latency_ms.p99;
            $("dropped").textContent = m.dropped;
            priceRows($("live-prices"), m.prices);
            refreshFrame();
          };
          socket.onclose = () => { socket = null; };
          api("status").then((r) => r.json()).then((s) => {
            const c = s.camera;
            $("camera-msg").textContent = !c.source ? "No camera: start pricecam serve with --device /dev/video0 or --replay DIR." : (c.error ? "Camera error: " + c.error : "Camera: " + c.source);
          });
          refreshFrame();
        }
        function stopCamera() { if (socket) { socket.close(); socket = null; } }
        function refreshFrame() {
          if (frameBusy) return;
          frameBusy = true;
          const img = $("frame");
          img.onload = img.onerror = () => { frameBusy = false; };
          img.src = withToken("api/v1/frame.jpg?t=" + Date.now());
        }

        // Scan: upload or drop a photo.
        async function scan(file) {
          $("scan-msg").className = "muted";
          $("scan-msg").textContent = "Reading " + file.name + "…";
          priceRows($("scan-prices"), []);
          const form = new FormData();
          form.append("image", file, file.name);
          const r = await api("scan", { method: "POST", body: form });
          const body = await r.json();
          if (!r.ok) { $("scan-msg").className = "msg"; $("scan-msg").textContent = body.error.message; drawScan(null, []); return; }
          $("scan-msg").textContent = body.prices.length + " price(s) found in " + body.ms + " ms.";
          priceRows($("scan-prices"), body.prices);
          drawScan(file, body.prices);
        }
        // The photo with each price boxed and labelled with its converted amount (boxes are in image pixels).
        function drawScan(file, prices) {
          const canvas = $("scancanvas"), ctx = canvas.getContext("2d");
          if (!file) { canvas.width = canvas.height = 0; return; }
          const img = new Image();
          img.onload = () => {
            canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
            ctx.drawImage(img, 0, 0);
            const line = Math.max(2, Math.round(canvas.width / 400));
            ctx.lineWidth = line; ctx.font = "bold " + Math.max(14, Math.round(canvas.height / 30)) + "px system-ui, sans-serif";
            for (const p of prices) {
              if (!p.box) continue;
              const [x, y, w, h] = p.box;
              ctx.strokeStyle = "#00a000"; ctx.strokeRect(x, y, w, h);
              const label = p.converted != null ? p.converted + " " + (p.target || "") : p.amount + " " + (p.currency || "");
              const ty = y > 30 ? y - 6 : y + h + 24;
              const tw = ctx.measureText(label).width;
              ctx.fillStyle = "rgba(255,255,255,.85)"; ctx.fillRect(x - 2, ty - 22, tw + 4, 28);
              ctx.fillStyle = "#b3261e"; ctx.fillText(label, x, ty);
            }
            URL.revokeObjectURL(img.src);
          };
          img.src = URL.createObjectURL(file);
        }
        $("file").addEventListener("change", (ev) => { if (ev.target.files[0]) scan(ev.target.files[0]); });
        $("drop").addEventListener("dragover", (ev) => ev.preventDefault());
        $("drop").addEventListener("drop", (ev) => { ev.preventDefault(); if (ev.dataTransfer.files[0]) scan(ev.dataTransfer.files[0]); });

        // History: newest first, 50 a page, filters, stats, export, clear with a confirmation.
        const pageSize = 50;
        let offset = 0;
        function historyQuery() {
          const q = new URLSearchParams();
          if ($("h-currency").value.trim()) q.set("currency", $("h-currency").value.trim());
          if ($("h-q").value.trim()) q.set("q", $("h-q").value.trim());
          return q;
        }
        async function loadHistory() {
          const q = historyQuery(); q.set("limit", pageSize); q.set("offset", offset);
          const r = await api("history?" + q);
          const body = await r.json();
          $("h-rows").replaceChildren(...body.rows.map((e) => {
            const tr = document.createElement("tr");
            tr.append(cell(new Date(e.time).toLocaleString()), cell(e.source), cell(e.text),
              cell(e.amount + " " + (e.currency || ""), "num"), cell(e.converted + " " + (e.target || ""), "num"));
            return tr;
          }));
          $("h-page").textContent = body.total ? (offset + 1) + "–" + (offset + body.rows.length) + " of " + body.total : "No history yet.";
          $("h-prev").disabled = offset === 0; $("h-next").disabled = offset + pageSize >= body.total;
          const eq = historyQuery();
          $("export-csv").href = withToken("api/v1/history/export?format=csv&" + eq);
          $("export-jsonl").href = withToken("api/v1/history/export?format=jsonl&" + eq);
          const s = await (await api("history/stats")).json();
          $("h-stats").textContent = s.count + " price(s) in " + s.runs + " run(s)" +
            s.by_currency.map((g) => "; " + g.count + " in " + g.currency + " = " + g.converted + " " + g.target).join("");
        }
        for (const id of ["h-currency", "h-q"]) $(id).addEventListener("input", () => { offset = 0; loadHistory(); });
        $("h-prev").addEventListener("click", () => { offset = Math.max(0, offset - pageSize); loadHistory(); });
        $("h-next").addEventListener("click", () => { offset += pageSize; loadHistory(); });
        $("clear").addEventListener("click", async () => {
          if (!confirm("Delete every row of the history? This cannot be undone.")) return;
          await api("history?confirm=yes", { method: "DELETE" });
          offset = 0; loadHistory();
        });

        api("settings").then((r) => r.json()).then(showSettings);
        </script>
        </body>
        </html>
        """#
}
