// The Ferry workbench (ferry serve): project view, file view, saving, fixes, jobs (re-verify,
// re-run the round) and the report. Talks to the JSON API under /api/ (src/serve/server.h);
// every request carries the token in the X-Ferry-Token header.
import { createFileEditor } from "./editor.js";

const token = document.querySelector('meta[name="ferry-token"]').content;
const $ = (id) => document.getElementById(id);

const state = {
  project: null,
  path: null,       // file shown
  view: null,       // its /api/view
  hash: null,       // hash of the text on disk the editor started from
  saved: "",        // that text
  editor: null,
  dirty: false,
  jobsVersion: 0,
  jobs: new Map(),  // id -> last seen state
};

// ---- API ----------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function api(path, { method = "GET", body, headers = {}, raw = false } = {}) {
  const h = { "X-Ferry-Token": token, ...headers };
  if (body !== undefined && typeof body !== "string") {
    h["Content-Type"] = "application/json";
    body = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers: h, body, credentials: "same-origin" });
  const text = await res.text();
  if (!res.ok) {
    let j = null;
    try {
      j = JSON.parse(text);
    } catch {}
    throw new ApiError(res.status, (j && j.error) || `${res.status} ${res.statusText}`, j);
  }
  return raw ? text : JSON.parse(text);
}

const q = (s) => encodeURIComponent(s);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("data-") || k === "title" || k === "href") e.setAttribute(k, String(v));
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function message(text, kind = "info") {
  const m = $("file-msg");
  m.textContent = text;
  m.className = kind;
}

// ---- project view -------------------------------------------------------------------------

const STATUS_TITLES = {
  conflict: "conflict markers from a round are in the file",
  edited: "edited by hand since Ferry wrote it (the next round merges it)",
  migrated: "changed by Ferry",
  unchanged: "Ferry changed nothing (copied or no CUDA in it)",
  untracked: "not written by Ferry",
  missing: "written by Ferry, deleted since",
  symlink: "a symbolic link: not opened",
};

async function loadProject() {
  const p = await api("/api/project");
  state.project = p;
  renderProject(p);
  return p;
}

function renderProject(p) {
  const archs = p.serve.archs.join(",");
  $("summary").textContent = `${p.out} — ${p.target} from ${p.input}${p.input_present ? "" : " (input gone)"}; ` +
    `round ${p.round}; verify for ${archs}`;
  const counts = $("counts");
  counts.replaceChildren();
  for (const s of ["migrated", "edited", "conflict", "unchanged", "untracked", "missing", "symlink"]) {
    const n = p.counts[s] || 0;
    if (!n && ["untracked", "missing", "symlink"].includes(s)) continue;
    counts.append(el("span", { class: `count st-${s}`, "data-status": s, "data-value": n, title: STATUS_TITLES[s] }, `${n} ${s}`));
  }
  if (p.verify) {
    counts.append(el("span", { class: "count verify", "data-passed": p.verify.passed, "data-compiles": p.verify.compiles },
      `verify ${p.verify.passed}/${p.verify.compiles} passed`));
  } else {
    counts.append(el("span", { class: "count verify" }, "verify: not run"));
  }

  // The tree: folders first, then files.
  const root = { dirs: new Map(), files: [] };
  for (const f of p.files) {
    const parts = f.path.split("/");
    let node = root;
    for (const d of parts.slice(0, -1)) {
      if (!node.dirs.has(d)) node.dirs.set(d, { dirs: new Map(), files: [] });
      node = node.dirs.get(d);
    }
    node.files.push({ name: parts[parts.length - 1], ...f });
  }
  const render = (node) => {
    const ul = el("ul", { class: "tree" });
    for (const [name, sub] of [...node.dirs].sort()) {
      const li = el("li", { class: "dir" });
      const det = el("details", { open: true }, el("summary", {}, name + "/"), render(sub));
      li.append(det);
      ul.append(li);
    }
    for (const f of node.files.sort((a, b) => a.name.localeCompare(b.name))) {
      const badges = [el("span", { class: `badge st-${f.status}`, title: STATUS_TITLES[f.status] }, f.status)];
      if (f.verify)
        for (const [arch, st] of Object.entries(f.verify))
          badges.push(el("span", { class: `vbadge ${st}`, "data-arch": arch, title: `verify ${arch}: ${st}` }, `${arch} ${st}`));
      const d = f.diagnostics;
      if (d && d.errors + d.warnings > 0)
        badges.push(el("span", { class: "dcount", title: `${d.errors} errors, ${d.warnings} warnings, ${d.notes} notes` },
          `⚠${d.errors + d.warnings}`));
      const link = f.status === "symlink" || f.status === "missing"
        ? el("span", { class: "name" }, f.name)
        : el("a", { class: "name", href: `#file=${q(f.path)}` }, f.name);
      ul.append(el("li", { class: `file st-${f.status}${f.path === state.path ? " current" : ""}`, "data-path": f.path,
                           "data-status": f.status }, link, " ", ...badges));
    }
    return ul;
  };
  $("tree").replaceWith(Object.assign(render(root), { id: "tree" }));

  const rounds = $("rounds");
  rounds.replaceChildren();
  if (p.rounds.length) {
    const t = el("table", { class: "rounds" });
    t.append(el("tr", {}, ...["round", "time (UTC)", "migr.", "unch.", "merged", "confl.", "edited"].map((h) => el("th", {}, h))));
    for (const r of p.rounds.slice().reverse())
      t.append(el("tr", { "data-round": r.round }, ...[r.round, (r.time || "").replace("T", " ").replace("Z", ""), r.migrated,
        r.unchanged, r.merged, r.conflicted, r.edited_by_hand].map((v) => el("td", {}, String(v)))));
    rounds.append(t);
  }
}

// ---- file view ----------------------------------------------------------------------------

function notesOf(view) {
  const migrated = [];
  const original = [];
  for (const d of view.diagnostics) {
    const note = { kind: "diag", ...d };
    if (!note.fix) delete note.preview;
    if (d.line) migrated.push(note);
    if (d.original_line && view.original !== null) original.push({ ...note, line: d.original_line, fix: null, exact: true });
  }
  for (const f of view.fixes)
    if (!f.attached) migrated.push({ kind: "diag", code: f.code, severity: "warning", message: f.message, hint: f.hint,
                                     line: f.line, exact: true, doc: f.doc, fix: f.id, preview: f.preview });
  for (const v of view.verify)
    for (const e of v.errors)
      if (e.line) migrated.push({ kind: "verify", arch: v.arch, line: e.line, message: e.message, cls: e.class, reason: e.reason,
                                  unit: v.unit, path: view.path, stale: v.stale === true });
  return { original, migrated };
}

function renderVerifyBar(view) {
  const bar = $("verify-bar");
  bar.replaceChildren();
  const own = view.verify.filter((v) => v.own);
  if (!own.length) {
    bar.append(el("span", { class: "muted" }, /\.(cu|hip|cpp|cc|cxx|c)$/.test(view.path)
      ? "not verified yet" : "a header: it is compiled with the translation units that include it"));
  }
  for (const v of own) {
    const errs = v.errors.filter((e) => e.line);
    bar.append(el("span", { class: `vresult ${v.status}`, "data-arch": v.arch, "data-status": v.status,
                            title: v.stale ? "the file changed since this result" : "" },
      `${v.arch}: ${v.status.toUpperCase()}${v.class ? ` (${v.class})` : ""}${v.stale ? " — stale" : ""}`));
    for (const e of errs.slice(0, 3))
      bar.append(el("a", { class: "vline", href: "#", "data-line": e.line, onclick: (ev) => {
        ev.preventDefault();
        state.editor.scrollToLine(e.line);
      } }, `line ${e.line}`));
    const unmapped = v.errors.filter((e) => !e.line);
    for (const e of unmapped.slice(0, 2)) bar.append(el("span", { class: "verr" }, e.message));
  }
}

function renderDiagList(view) {
  const box = $("diag-list");
  box.replaceChildren();
  if (!view.diagnostics.length && !view.fixes.length) {
    box.append(el("p", { class: "muted" }, "no diagnostics for this file"));
    return;
  }
  const t = el("table", { class: "diags" });
  t.append(el("tr", {}, ...["line", "code", "severity", "message"].map((h) => el("th", {}, h))));
  for (const d of view.diagnostics) {
    const row = el("tr", { class: `sev-${d.severity}`, "data-code": d.code },
      el("td", {}, d.line ? el("a", { href: "#", onclick: (e) => (e.preventDefault(), state.editor.scrollToLine(d.line)) }, String(d.line)) : "file"),
      el("td", {}, d.doc ? el("a", { href: d.doc, target: "_blank", rel: "noopener" }, d.code) : d.code),
      el("td", {}, d.severity),
      el("td", {}, d.message, d.hint ? el("div", { class: "hint" }, d.hint) : null));
    t.append(row);
  }
  box.append(t);
}

function setDirty(d) {
  state.dirty = d;
  $("file-dirty").hidden = !d;
  $("save").disabled = !d;
  $("revert").disabled = !d;
}

async function openFile(path, { keepMessage = false } = {}) {
  if (state.dirty && path !== state.path && !confirm(`Discard unsaved edits of ${state.path}?`)) {
    location.hash = `#file=${q(state.path)}`;
    return;
  }
  const view = await api(`/api/view?path=${q(path)}`);
  state.path = view.path;
  state.view = view;
  state.hash = view.hash;
  state.saved = view.content;
  $("welcome").hidden = true;
  $("reportview").hidden = true;
  $("fileview").hidden = false;
  $("file-path").textContent = view.path;
  const st = $("file-status");
  st.textContent = view.status;
  st.className = `badge st-${view.status}`;
  st.dataset.status = view.status;
  $("verify-file").disabled = !/\.(cu|hip|cpp|cc|cxx|c)$/.test(view.path);
  if (state.editor) state.editor.destroy();
  const mergeBox = $("merge");
  mergeBox.replaceChildren();
  state.editor = createFileEditor(mergeBox, {
    original: view.original,
    content: view.content,
    path: view.path,
    actions: {
      onChange: (text) => setDirty(text !== state.saved),
      save: () => save(),
      applyFix: (id) => applyFix(id),
    },
  });
  const notes = notesOf(view);
  state.editor.setNotes(notes);
  renderVerifyBar(view);
  renderDiagList(view);
  setDirty(false);
  // Start where the work is: the first note of the migrated side (a conflict first).
  const first = view.conflict_lines.length ? view.conflict_lines[0]
    : Math.min(...notes.migrated.map((n) => n.line).filter((n) => n > 0));
  if (Number.isFinite(first) && first > 1) state.editor.scrollToLine(first);
  if (!keepMessage) message(view.original === null ? "no original in the input tree for this file" : "");
  for (const li of document.querySelectorAll("#tree li.file"))
    li.classList.toggle("current", li.dataset.path === view.path);
  window.ferryWorkbench.fileReady = view.path;
}

// The notes of the file as it is on disk now, keeping the editor's text (after a save or a job).
async function refreshView() {
  if (!state.path) return;
  const view = await api(`/api/view?path=${q(state.path)}`);
  if (view.content !== state.editor.text()) {
    if (!state.dirty) return openFile(state.path, { keepMessage: true });
    message("the file changed on disk; your unsaved edits are still here (saving will be refused: Revert to load it)", "warn");
    return;
  }
  state.view = view;
  state.hash = view.hash;
  state.saved = view.content;
  $("file-status").textContent = view.status;
  $("file-status").className = `badge st-${view.status}`;
  $("file-status").dataset.status = view.status;
  state.editor.setNotes(notesOf(view));
  renderVerifyBar(view);
  renderDiagList(view);
  setDirty(false);
}

async function save() {
  if (!state.path) return;
  const text = state.editor.text();
  try {
    const r = await api(`/api/file?path=${q(state.path)}`, { method: "PUT", body: text,
      headers: { "X-Ferry-Base-Hash": state.hash, "Content-Type": "text/plain; charset=utf-8" } });
    state.hash = r.hash;
    state.saved = text;
    setDirty(false);
    await refreshView();
    await loadProject();
    message(`saved ${state.path} (${r.bytes} bytes): recorded as your edit; the next round merges it`, "ok");
  } catch (e) {
    if (e.status === 409)
      message(`not saved: ${e.message}. Your text is still in the editor; Revert loads the file as it is on disk now.`, "error");
    else message(`not saved: ${e.message}`, "error");
  }
}

async function applyFix(id) {
  if (state.dirty) {
    message("save or revert your edits first: a fix applies to the file as it is on disk", "warn");
    return;
  }
  try {
    await api(`/api/fix?path=${q(state.path)}&id=${q(id)}`, { method: "POST", headers: { "X-Ferry-Base-Hash": state.hash } });
    await openFile(state.path, { keepMessage: true });
    message(`applied fix ${id}; saved as your edit`, "ok");
    await loadProject();
  } catch (e) {
    message(`fix not applied: ${e.message}`, "error");
  }
}

// ---- jobs ---------------------------------------------------------------------------------

async function submit(body) {
  try {
    await api("/api/jobs", { method: "POST", body });
  } catch (e) {
    alert(`not started: ${e.message}`);
  }
}

function renderJobs(list) {
  const ul = $("jobs");
  ul.replaceChildren();
  for (const j of list.jobs) {
    const pct = j.total ? Math.round((100 * j.done) / j.total) : j.state === "done" ? 100 : 0;
    const li = el("li", { class: `job ${j.state}`, "data-id": j.id, "data-kind": j.kind, "data-state": j.state },
      el("div", { class: "label" }, `#${j.id} ${j.label}`),
      el("div", { class: "state" }, `${j.state}${j.total ? ` ${j.done}/${j.total}` : ""}${j.note && j.state === "running" ? ` — ${j.note}` : ""}`),
      el("progress", { max: 100, value: pct }));
    if (j.error) li.append(el("div", { class: "error" }, j.error));
    if (j.state === "done" && j.kind === "verify" && j.result && j.result.summary) {
      const s = j.result.summary;
      li.append(el("div", { class: "result" }, `${s.passed} passed, ${s.failed} failed`));
    }
    if (j.state === "done" && j.kind === "round" && j.result) {
      const r = j.result.round;
      li.append(el("div", { class: "result" }, `round ${r.round}: ${r.merged} merged, ${r.conflicted} conflicts, ${r.edited_by_hand} edited`));
    }
    if (j.cancellable) li.append(el("button", { class: "cancel", onclick: () => api(`/api/jobs/${j.id}/cancel`, { method: "POST" }).catch((e) => alert(e.message)) }, "Cancel"));
    ul.append(li);
  }
}

function renderRoundResult(job) {
  const box = $("round-result");
  box.replaceChildren();
  const r = job.result;
  box.append(el("h3", {}, `Round ${r.round.round}`));
  const groups = {};
  for (const f of r.files) (groups[f.action] ||= []).push(f.path);
  for (const action of ["conflict", "merged", "kept", "migrated", "copied", "removed"]) {
    if (!groups[action]) continue;
    box.append(el("div", { class: `rr ${action}`, "data-action": action }, el("strong", {}, `${action} (${groups[action].length}): `),
      ...groups[action].flatMap((p, i) => [i ? ", " : "", el("a", { href: `#file=${q(p)}` }, p)])));
  }
  box.append(el("div", { class: "muted" }, `${r.round.unchanged} unchanged; ${r.diagnostics} diagnostics`));
  for (const n of r.notes) box.append(el("div", { class: "note" }, n));
}

async function onJobFinished(job) {
  await loadProject();
  if (job.kind === "round" && job.state === "done") renderRoundResult(job);
  if (state.path) {
    await refreshView();
    // After a verify, show the first error of this file.
    const errs = job.kind === "verify" && state.view && !state.dirty
      ? state.view.verify.flatMap((v) => v.errors.map((e) => e.line)).filter((n) => n > 0) : [];
    if (errs.length) state.editor.scrollToLine(Math.min(...errs));
  }
  window.ferryWorkbench.finishedJobs.push(job.id);
}

async function pollJobs() {
  for (;;) {
    try {
      const list = await api(`/api/jobs?since=${state.jobsVersion}`);
      state.jobsVersion = list.version;
      renderJobs(list);
      for (const j of list.jobs) {
        const before = state.jobs.get(j.id);
        state.jobs.set(j.id, j.state);
        const done = ["done", "failed", "cancelled"].includes(j.state);
        if (done && before !== undefined && !["done", "failed", "cancelled"].includes(before)) await onJobFinished(j);
      }
    } catch (e) {
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

// ---- report and routing -------------------------------------------------------------------

function showReport() {
  $("welcome").hidden = true;
  $("fileview").hidden = true;
  $("reportview").hidden = false;
  $("report-frame").src = `/api/report?format=html&t=${Date.now()}`;
}

async function route() {
  const h = decodeURIComponent(location.hash.slice(1));
  try {
    if (h.startsWith("file=")) await openFile(h.slice(5));
    else if (h === "report") showReport();
  } catch (e) {
    $("welcome").hidden = false;
    $("welcome").replaceChildren(el("p", { class: "error" }, `cannot open: ${e.message}`));
  }
}

async function main() {
  window.ferryWorkbench = { fileReady: null, finishedJobs: [], ready: false, editor: () => state.editor, state };
  history.replaceState(null, "", location.pathname + location.hash);  // the token stays out of history
  $("save").onclick = () => save();
  $("revert").onclick = () => openFile(state.path).then(() => message("reverted to the file on disk"));
  $("verify-file").onclick = () => submit({ kind: "verify", path: state.path });
  $("verify-all").onclick = () => submit({ kind: "verify" });
  $("rerun").onclick = () => {
    if (state.dirty && !confirm("Your unsaved edits are not part of the round. Re-run anyway?")) return;
    submit({ kind: "round" });
  };
  window.addEventListener("hashchange", route);
  window.addEventListener("beforeunload", (e) => {
    if (state.dirty) e.preventDefault();
  });
  await loadProject();
  await route();
  window.ferryWorkbench.ready = true;
  pollJobs();
}

main().catch((e) => {
  document.body.prepend(el("p", { class: "error" }, `workbench failed to start: ${e.message}`));
});
