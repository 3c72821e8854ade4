// A play socket's delta frame merged into the session document it was made from (docs/api.md):
// objects key by key (the keys under "-" are gone), arrays of objects index by index, other
// arrays by splices [at, cut, put]; any other value is the new value itself. Data only: no rule.
const GONE = "-";
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

export function merge(old, change) {
  if (isObject(old) && isObject(change)) {
    const merged = { ...old };
    for (const key of change[GONE] || []) delete merged[key];
    for (const [key, value] of Object.entries(change)) {
      if (key !== GONE) merged[key] = Object.hasOwn(old, key) ? merge(old[key], value) : value;
    }
    return merged;
  }
  if (Array.isArray(old) && isObject(change)) {
    const items = old.slice();
    for (const [index, value] of Object.entries(change)) items[Number(index)] = merge(items[Number(index)], value);
    return items;
  }
  if (Array.isArray(old) && Array.isArray(change)) {
    const items = old.slice();
    for (const [at, cut, put] of change) items.splice(at, cut, ...put);
    return items;
  }
  return change;
}

// A frame's own keys, beside the document's: a pushed frame answers nothing the page asked.
const FRAME_KEYS = ["type", "base", "pushed"];

// A delta frame's change of the document: all of it but its own keys.
export function changesOf(frame) {
  const changes = { ...frame };
  for (const key of FRAME_KEYS) delete changes[key];
  return changes;
}

// A whole session frame's document.
export function documentOf(frame) {
  return changesOf(frame);
}

// Whether a delta frame applies to `doc`: it must be the document this socket connection sent
// last (`own`), at the log length the delta names as its base. If not, ask for the whole one.
export function applies(doc, frame, own) {
  return Boolean(own && doc && frame.base === doc.actions);
}
