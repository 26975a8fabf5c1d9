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
        [hidden] { display:none !important; }
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
        .view { position:relative; display:inline-block; max-width:100%; background:#222; min-height:120px; border:1px solid var(--line); }
        .view img, .view video { display:block; max-width:100%; height:auto; }
        .overlay { position:absolute; inset:0; pointer-events:none; overflow:hidden; }
        .pbox { position:absolute; border:2px solid #00e676; border-radius:3px; box-shadow:0 0 0 1px rgba(0,0,0,.5); }
        .plabel { position:absolute; background:rgba(0,0,0,.8); color:#fff; font-weight:700; padding:0 .3em; border-radius:4px;
          white-space:nowrap; line-height:1.3; font-variant-numeric:tabular-nums; }
        .plabel.original { background:rgba(11,107,203,.9); }
        header label { font-weight:400; margin:0 0 0 auto; display:flex; gap:.3rem; align-items:center; }
        .camera-buttons { display:flex; gap:.6rem; flex-wrap:wrap; margin-bottom:.6rem; }
        .camera-buttons button { font:inherit; padding:.45rem .8rem; border:1px solid var(--accent); color:var(--accent); background:#fff; border-radius:4px; cursor:pointer; }
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
        </nav>
        <label id="original-toggle" hidden><input type="checkbox" id="show-original"> prices as printed</label>
        </header>
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
        <div class="camera-buttons">
        <button id="use-device" type="button">Use this device's camera</button>
        <button id="use-server" type="button" hidden>Use the server's camera</button>
        </div>
        <div class="stats"><span>fps <b id="fps">–</b></span><span>latency p50 <b id="p50">–</b> ms</span><span>p99 <b id="p99">–</b> ms</span><span>dropped <b id="dropped">–</b></span></div>
        <p id="camera-msg" class="muted"></p>
        <div class="view" id="camera-view"><img id="frame" alt="camera frame"><video id="video" playsinline muted hidden></video><div class="overlay" id="camera-overlay"></div></div>
        <h3>Prices in view</h3>
        <table><thead><tr><th>read</th><th>amount</th><th>converted</th></tr></thead><tbody id="live-prices"></tbody></table>
        </section>

        <section id="scan" hidden>
        <div id="drop"><p>Drop a photo here, or</p><input type="file" id="file" accept="image/*"></div>
        <p id="scan-msg" class="msg"></p>
        <div class="view" id="scan-view" hidden><img id="scan-img" alt="the photo scanned"><div class="overlay" id="scan-overlay"></div></div>
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
          $("original-toggle").hidden = !configured;
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

        // The prices over the image: a box on each, and its converted amount (or, with the toggle,
        // the amount as printed) in a label beside it: above the box, else below, right or left,
        // where it covers no other label and no price; failing that, smaller; then allowed over
        // other prices (never over a label); then slid down to the first free place; else left
        // out (the table lists every price). Boxes come in the image's pixels (srcW × srcH); the
        // layer is the image as shown.
        const overlays = new Map();
        function labelText(p, original) {
          if (original || p.converted == null) return p.amount + " " + (p.currency || "");
          return p.converted + " " + (p.target || "");
        }
        function drawOverlay(layer, prices, srcW, srcH) {
          overlays.set(layer, { prices, srcW, srcH });
          layer.replaceChildren();
          const W = layer.clientWidth, H = layer.clientHeight;
          if (!W || !H || !srcW || !srcH) return;
          const sx = W / srcW, sy = H / srcH, original = $("show-original").checked;
          const base = Math.max(14, Math.min(22, Math.round(W / 36)));
          const hit = (r, q) => r.x < q.x + q.w && q.x < r.x + r.w && r.y < q.y + q.h && q.y < r.y + r.h;
          const clamp = (v, lo, hi) => Math.max(lo, Math.min(v, hi));
          const withBox = prices.filter((p) => p.box).sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
          const boxes = withBox.map((p) => ({ x: p.box[0] * sx, y: p.box[1] * sy, w: p.box[2] * sx, h: p.box[3] * sy }));
          const placed = [];
          withBox.forEach((p, i) => {
            const { x: bx, y: by, w: bw, h: bh } = boxes[i];
            const box = document.createElement("div");
            box.className = "pbox";
            Object.assign(box.style, { left: bx + "px", top: by + "px", width: bw + "px", height: bh + "px" });
            const label = document.createElement("div");
            label.className = "plabel" + (original || p.converted == null ? " original" : "");
            label.textContent = labelText(p, original);
            label.title = p.text + " → " + labelText(p, false);
            layer.append(box, label);
            let spot = null;
            for (const strict of [true, false]) {
              const free = (r) => !placed.some((q) => hit(r, q)) && (!strict || !boxes.some((q) => hit(r, q)));
              for (const size of [base, Math.round(base * 0.82), Math.max(10, Math.round(base * 0.66))]) {
                label.style.fontSize = size + "px";
                const lw = label.offsetWidth, lh = label.offsetHeight;
                for (const [cx, cy] of [[bx, by - lh - 2], [bx, by + bh + 2], [bx + bw + 4, by + (bh - lh) / 2], [bx - lw - 4, by + (bh - lh) / 2]]) {
                  const r = { x: clamp(cx, 0, W - lw), y: clamp(cy, 0, H - lh), w: lw, h: lh };
                  if (free(r)) { spot = r; break; }
                }
                if (spot) break;
              }
              if (spot) break;
            }
            if (!spot) {
              const lw = label.offsetWidth, lh = label.offsetHeight;
              for (let cy = clamp(by, 0, H - lh); cy + lh <= H && !spot; cy += 2) {
                const r = { x: clamp(bx, 0, W - lw), y: cy, w: lw, h: lh };
                if (!placed.some((q) => hit(r, q))) spot = r;
              }
            }
            if (!spot) { label.hidden = true; return; }
            placed.push(spot);
            Object.assign(label.style, { left: spot.x + "px", top: spot.y + "px" });
          });
        }
        function redrawOverlays() { for (const [layer, o] of overlays) drawOverlay(layer, o.prices, o.srcW, o.srcH); }
        $("show-original").addEventListener("change", redrawOverlays);
        window.addEventListener("resize", redrawOverlays);
        function wsURL(path) {
          return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/[^/]*$/, "") + path;
        }

        // Camera, from the server (its V4L2 camera or replay): the live feed over a WebSocket; the
        // newest frame (in colour) is fetched when the previous one has loaded, and the prices of
        // the last frame read are drawn over it.
        let socket = null, frameBusy = false, serverCamera = null, lastLive = null;
        function startCamera() {
          if (device) return;
          api("status").then((r) => r.json()).then((s) => {
            const c = s.camera;
            serverCamera = c.source;
            $("use-server").hidden = !c.source;
            if (device) return;
            $("camera-msg").textContent = !c.source
              ? "No camera on the server: use this device's camera, or start pricecam serve with --device /dev/video0 or --replay DIR."
              : (c.error ? "Camera error: " + c.error : "Camera: " + c.source);
            if (c.source) startServerFeed();
          });
        }
        function startServerFeed() {
          if (socket || device) return;
          $("frame").hidden = false; $("video").hidden = true;
          socket = new WebSocket(withToken(wsURL("api/v1/live")));
          socket.onmessage = (ev) => {
            const m = JSON.parse(ev.data);
            $("fps").textContent = m.fps; $("p50").textContent = m.latency_ms.p50; $("p99").textContent = m.latency_ms.p99;
            $("dropped").textContent = m.dropped;
            priceRows($("live-prices"), m.prices);
            lastLive = m;
            refreshFrame();
          };
          socket.onclose = () => { socket = null; };
          refreshFrame();
        }
        function stopCamera() { if (socket) { socket.close(); socket = null; } stopDevice(); }
        function refreshFrame() {
          if (frameBusy || device) return;
          frameBusy = true;
          const img = $("frame");
          img.onload = () => {
            frameBusy = false;
            if (lastLive) drawOverlay($("camera-overlay"), lastLive.prices, img.naturalWidth, img.naturalHeight);
          };
          img.onerror = () => { frameBusy = false; };
          img.src = withToken("api/v1/frame.jpg?t=" + Date.now());
        }

        // Camera, from this device (a phone's rear camera when it has one): frames of about 960 px
        // go to the server as JPEGs over a WebSocket, one at a time (the next when the answer comes,
        // so a busy server gets only the newest); the prices come back with boxes in the sent frame.
        let device = null;
        const latencies = [];
        async function startDevice() {
          if (socket) { socket.close(); socket = null; }
          stopDevice();
          if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
            $("camera-msg").textContent = "This page cannot use a camera: browsers allow it only over HTTPS (start pricecam serve with --tls) or on localhost.";
            return;
          }
          let stream;
          try {
            stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } } });
          } catch (e) {
            $("camera-msg").textContent = "No camera: " + (e.message || e.name) + " (allow the camera for this page, or use the server's).";
            return;
          }
          const video = $("video");
          video.srcObject = stream;
          video.hidden = false; $("frame").hidden = true;
          await video.play().catch(() => {});
          const ws = new WebSocket(withToken(wsURL("api/v1/camera/stream")));
          ws.binaryType = "arraybuffer";
          const d = { stream, ws, busy: false, sentAt: 0, sentW: 0, sentH: 0, canvas: document.createElement("canvas"), frames: 0 };
          device = d;
          latencies.length = 0;
          $("camera-msg").textContent = "Camera: this device (" + (stream.getVideoTracks()[0].label || "camera") + ")";
          ws.onopen = () => sendFrame(d);
          ws.onmessage = (ev) => {
            if (device !== d) return;
            const m = JSON.parse(ev.data);
            d.busy = false;
            if (m.event === "error") { $("camera-msg").textContent = m.message; setTimeout(() => sendFrame(d), 500); return; }
            d.frames++;
            if (m.latency_ms != null) { latencies.push(m.latency_ms); if (latencies.length > 200) latencies.shift(); }
            const sorted = latencies.slice().sort((a, b) => a - b), at = (q) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(0) : "–";
            $("p50").textContent = at(0.5); $("p99").textContent = at(0.99); $("dropped").textContent = m.dropped;
            $("fps").textContent = (d.frames / ((performance.now() - d.started) / 1000)).toFixed(1);
            priceRows($("live-prices"), m.prices);
            drawOverlay($("camera-overlay"), m.prices, m.width || d.sentW, m.height || d.sentH);
            sendFrame(d);
          };
          ws.onclose = (ev) => {
            if (device !== d) return;
            $("camera-msg").textContent = "The camera stream closed" + (ev.reason ? ": " + ev.reason : "") + " (code " + ev.code + ").";
            stopDevice();
          };
          d.started = performance.now();
          // An answer that never comes (a frame whose reading failed) does not stall the stream.
          d.watchdog = setInterval(() => { if (d.busy && performance.now() - d.sentAt > 5000) { d.busy = false; sendFrame(d); } }, 1000);
        }
        function sendFrame(d) {
          if (device !== d || d.busy || d.ws.readyState !== WebSocket.OPEN) return;
          const v = $("video");
          if (!v.videoWidth) { setTimeout(() => sendFrame(d), 100); return; }
          const scale = Math.min(1, 960 / Math.max(v.videoWidth, v.videoHeight));
          const w = Math.round(v.videoWidth * scale), h = Math.round(v.videoHeight * scale);
          d.canvas.width = w; d.canvas.height = h;
          d.canvas.getContext("2d").drawImage(v, 0, 0, w, h);
          d.busy = true; d.sentAt = performance.now(); d.sentW = w; d.sentH = h;
          d.canvas.toBlob((blob) => {
            if (device === d && blob && d.ws.readyState === WebSocket.OPEN) d.ws.send(blob); else d.busy = false;
          }, "image/jpeg", 0.85);
        }
        function stopDevice() {
          const d = device;
          if (!d) return;
          device = null;
          clearInterval(d.watchdog);
          if (d.ws.readyState <= WebSocket.OPEN) d.ws.close();
          for (const t of d.stream.getTracks()) t.stop();
          $("video").srcObject = null;
        }
        $("use-device").addEventListener("click", startDevice);
        $("use-server").addEventListener("click", () => { stopDevice(); startCamera(); });

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
        // The photo with the prices drawn over it (boxes are in image pixels).
        function drawScan(file, prices) {
          const view = $("scan-view"), img = $("scan-img");
          if (!file) { view.hidden = true; drawOverlay($("scan-overlay"), [], 0, 0); return; }
          img.onload = () => {
            view.hidden = false;
            drawOverlay($("scan-overlay"), prices, img.naturalWidth, img.naturalHeight);
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
