// „Kopiuj link” on the invitation panel (templates/games/join.html). The Clipboard API needs
// HTTPS or localhost; on a home network's plain http:// address the link is selected and copied
// the old way instead, or left selected for the phone's own menu. Without this file the link
// still stands there in full, and one tap selects it (user-select: all).
(() => {
  "use strict";

  const t = window.kosciText || ((key) => key); // app.js: texts in the page's language

  const link = document.querySelector("[data-invite-url]");
  const button = document.querySelector("[data-copy-invite]");
  const status = document.querySelector("[data-copy-status]");
  if (!link || !button) return;

  function select() {
    const range = document.createRange();
    range.selectNodeContents(link);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  async function copy() {
    const url = link.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(url);
        return true;
      } catch {
        // fall back to the selection below
      }
    }
    select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }

  button.hidden = false;
  button.addEventListener("click", async () => {
    const done = await copy();
    if (status) {
      status.textContent = done ? t("invite.copied") : t("invite.selected");
    }
  });
})();
