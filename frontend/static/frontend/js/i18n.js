// The interface's words for the modules: Django's JavaScript catalog (/jsi18n/) in the page's language.
export function gettext(text) {
  return typeof window.gettext === "function" ? window.gettext(text) : text;
}

// A word that means another thing elsewhere ("Play" a replay, "Play" a game): its context tells them apart.
export function pgettext(context, text) {
  return typeof window.pgettext === "function" ? window.pgettext(context, text) : text;
}

export function ngettext(singular, plural, count) {
  if (typeof window.ngettext === "function") return window.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

// Fill %(name)s placeholders: fmt(gettext("%(n)s deals left"), {n: 3}).
export function fmt(text, params) {
  return text.replace(/%\((\w+)\)s/g, (_, key) => String(params[key] ?? ""));
}

export function language() {
  return document.documentElement.lang || "en";
}
