// The file view's editors: a CodeMirror 6 merge view, the original (read-only) on the left and
// the migrated file (editable) on the right, with Ferry's notes under their lines:
//   diagnostics of the migration (code, message, hint, doc link, "Apply fix" where a safe fix
//   exists), verify errors per arch, and the conflict markers rounds write, highlighted.
// Notes are block widgets kept in a state field and mapped through edits, so they stay with
// their lines while the user types.
import { EditorView, basicSetup } from "codemirror";
import { MergeView } from "@codemirror/merge";
import { cpp } from "@codemirror/lang-cpp";
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import { Decoration, WidgetType, keymap } from "@codemirror/view";

const setNotes = StateEffect.define();

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, String(v));
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

class NoteWidget extends WidgetType {
  constructor(note, actions) {
    super();
    this.note = note;
    this.actions = actions;
  }
  eq(other) {
    return JSON.stringify(other.note) === JSON.stringify(this.note);
  }
  toDOM() {
    const n = this.note;
    if (n.kind === "verify") {
      return el(
        "div",
        { class: `ferry-note ferry-verify ${n.stale ? "stale" : ""}`, "data-arch": n.arch, "data-line": n.line,
          "data-class": n.cls },
        el("span", { class: "tag fail" }, `${n.arch} FAIL`),
        " ",
        el("span", { class: "msg" }, n.message),
        n.cls ? el("span", { class: "cls" }, ` (${n.cls}${n.unit && n.unit !== n.path ? `, compiling ${n.unit}` : ""})`) : null,
        n.reason ? el("div", { class: "hint" }, n.reason) : null,
      );
    }
    const code = n.doc
      ? el("a", { class: "code", href: n.doc, target: "_blank", rel: "noopener", title: "docs/diagnostics.md" }, n.code)
      : el("span", { class: "code" }, n.code);
    const fix = n.fix
      ? el("button", { class: "apply-fix", "data-fix": n.fix, title: "apply the safe fix of ferry analyze --fix",
                       onclick: () => this.actions.applyFix(n.fix) }, "Apply fix")
      : null;
    return el(
      "div",
      { class: `ferry-note ferry-diag sev-${n.severity}`, "data-code": n.code, "data-line": n.line,
        "data-original-line": n.original_line },
      code,
      " ",
      el("span", { class: "sev" }, n.severity),
      " ",
      el("span", { class: "msg" }, n.message),
      n.exact ? null : el("span", { class: "approx", title: "the line was edited since; this is the nearest place" }, " ≈"),
      fix ? " " : null,
      fix,
      n.hint ? el("div", { class: "hint" }, n.hint) : null,
      n.preview ? el("pre", { class: "preview" }, n.preview) : null,
    );
  }
  ignoreEvent() {
    return true;
  }
}

function buildNotes(state, notes, actions) {
  const ranges = [];
  for (const n of notes) {
    if (!n.line || n.line < 1) continue;
    const line = state.doc.line(Math.min(n.line, state.doc.lines));
    ranges.push(Decoration.line({ class: n.kind === "verify" ? "cm-ferry-error-line" : `cm-ferry-diag-line sev-${n.severity}` }).range(line.from));
    ranges.push(Decoration.widget({ widget: new NoteWidget(n, actions), block: true, side: 1 }).range(line.to));
  }
  return Decoration.set(ranges, true);
}

function notesField(actions) {
  return StateField.define({
    create: () => Decoration.none,
    update(deco, tr) {
      deco = deco.map(tr.changes);
      for (const e of tr.effects) if (e.is(setNotes)) deco = buildNotes(tr.state, e.value, actions);
      return deco;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
}

const BEGIN = "<<<<<<< ferry-new";
const SEP = "=======";
const END = ">>>>>>> user-edit";

// Conflict markers and the two sides between them, recomputed as the text changes.
function conflictDecorations(doc) {
  const ranges = [];
  let side = null;
  for (let i = 1; i <= doc.lines; i++) {
    const line = doc.line(i);
    const t = line.text;
    if (t.startsWith(BEGIN)) {
      side = "ours";
      ranges.push(Decoration.line({ class: "cm-ferry-conflict-marker", attributes: { "data-conflict": "begin" } }).range(line.from));
    } else if (side && t === SEP) {
      side = "theirs";
      ranges.push(Decoration.line({ class: "cm-ferry-conflict-marker", attributes: { "data-conflict": "sep" } }).range(line.from));
    } else if (side && t.startsWith(END)) {
      side = null;
      ranges.push(Decoration.line({ class: "cm-ferry-conflict-marker", attributes: { "data-conflict": "end" } }).range(line.from));
    } else if (side) {
      ranges.push(Decoration.line({ class: `cm-ferry-conflict-${side}` }).range(line.from));
    }
  }
  return Decoration.set(ranges);
}

const conflictField = StateField.define({
  create: (state) => conflictDecorations(state.doc),
  update: (deco, tr) => (tr.docChanged ? conflictDecorations(tr.state.doc) : deco),
  provide: (f) => EditorView.decorations.from(f),
});

// Creates the merge view in `parent`. `actions`: {onChange(text), save(), applyFix(id)}.
export function createFileEditor(parent, { original, content, path, actions }) {
  const lang = /\.(py)$/.test(path) ? [] : [cpp()];
  const common = [basicSetup, ...lang, EditorView.lineWrapping];
  const notesA = notesField(actions);
  const notesB = notesField(actions);
  const merge = new MergeView({
    parent,
    a: {
      doc: original ?? "",
      extensions: [...common, notesA, EditorState.readOnly.of(true), EditorView.editable.of(false)],
    },
    b: {
      doc: content,
      extensions: [
        ...common,
        notesB,
        conflictField,
        keymap.of([{ key: "Mod-s", preventDefault: true, run: () => (actions.save(), true) }]),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) actions.onChange(u.state.doc.toString());
        }),
      ],
    },
    highlightChanges: true,
    gutter: true,
    collapseUnchanged: original && original.length > 20000 ? { margin: 4, minSize: 8 } : undefined,
  });
  return {
    merge,
    text: () => merge.b.state.doc.toString(),
    // notes: {original: [...], migrated: [...]} as built by main.js
    setNotes(notes) {
      merge.a.dispatch({ effects: setNotes.of(notes.original) });
      merge.b.dispatch({ effects: setNotes.of(notes.migrated) });
    },
    replaceText(text) {
      merge.b.dispatch({ changes: { from: 0, to: merge.b.state.doc.length, insert: text } });
    },
    scrollToLine(n) {
      const view = merge.b;
      const line = view.state.doc.line(Math.max(1, Math.min(n, view.state.doc.lines)));
      view.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: "center" }) });
      view.focus();
    },
    // Selects line n of the migrated side (without its line break) and focuses it.
    selectLine(n) {
      const view = merge.b;
      const line = view.state.doc.line(Math.max(1, Math.min(n, view.state.doc.lines)));
      view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
      view.focus();
    },
    // The 1-based line (of the migrated side) a note element sits under (tests use it).
    lineOfElement(elem) {
      const view = elem.closest(".cm-editor") === merge.a.dom ? merge.a : merge.b;
      return view.state.doc.lineAt(view.posAtDOM(elem)).number;
    },
    destroy: () => merge.destroy(),
  };
}
