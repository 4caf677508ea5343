// The arbiter's dice pad. Progressive enhancement: without this file the forms are plain GET
// forms with a text input of five digits per roll.
//
// Each [data-dice-entry] holds one roll: its text input [data-dice-input] stays the value the
// form sends, and [data-dice-slots] shows the five dice as buttons (tap one to clear it). The
// form's single [data-dice-pad] fills the next empty die of the active roll. When a roll is
// complete, a form marked data-autosubmit submits; otherwise the next incomplete roll becomes
// active (poker: one hand after another).
(() => {
  "use strict";

  const DICE = 5;

  for (const form of document.querySelectorAll("[data-arbiter-form]")) {
    enhance(form);
  }

  function enhance(form) {
    const pad = form.querySelector("[data-dice-pad]");
    if (!pad) return;
    let entries = [];
    let active = null;

    function makeEntry(scope) {
      const input = scope.querySelector("[data-dice-input]");
      const slots = scope.querySelector("[data-dice-slots]");
      const entry = { scope, input, slots, dice: parse(input.value) };
      slots.hidden = false;
      slots.replaceChildren(
        ...Array.from({ length: DICE }, (_, i) => {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "die die-slot";
          button.addEventListener("click", () => {
            entry.dice[i] = null;
            activate(entry);
            render(entry, true);
          });
          return button;
        }),
      );
      input.addEventListener("input", () => {
        entry.dice = parse(input.value);
        render(entry, false);
      });
      input.addEventListener("focus", () => activate(entry));
      scope.addEventListener("click", (event) => {
        if (!event.target.closest("input, select, button, label")) activate(entry);
      });
      render(entry, false);
      return entry;
    }

    function parse(text) {
      const digits = Array.from(text.replace(/[^1-6]/g, "").slice(0, DICE), Number);
      return Array.from({ length: DICE }, (_, i) => digits[i] ?? null);
    }

    function isFull(entry) {
      return entry.dice.every((d) => d !== null);
    }

    function render(entry, syncInput) {
      if (syncInput) {
        entry.input.value = entry.dice.filter((d) => d !== null).join("");
      }
      entry.slots.querySelectorAll("button").forEach((button, i) => {
        const die = entry.dice[i];
        button.textContent = die ?? "";
        button.classList.toggle("is-empty", die === null);
        button.setAttribute(
          "aria-label",
          die === null ? `Kość nr ${i + 1}: pusta` : `Kość nr ${i + 1}: ${die}, dotknij, aby usunąć`,
        );
      });
    }

    function activate(entry) {
      active = entry;
      for (const e of entries) e.scope.classList.toggle("is-active", e === entry);
    }

    function nextIncomplete(from) {
      const start = entries.indexOf(from);
      for (let step = 1; step <= entries.length; step += 1) {
        const candidate = entries[(start + step) % entries.length];
        if (!isFull(candidate)) return candidate;
      }
      return null;
    }

    pad.hidden = false;
    pad.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-face]");
      if (!button) return;
      // The active roll, else the next incomplete one, else the next roll in order, which
      // starts again: the table has moved on to a new roll (a new round of poker).
      let entry = active ?? entries[0];
      if (isFull(entry) && active) {
        entry = nextIncomplete(entry) ?? entries[(entries.indexOf(entry) + 1) % entries.length];
      }
      if (isFull(entry)) entry.dice.fill(null);
      activate(entry);
      entry.dice[entry.dice.indexOf(null)] = Number(button.dataset.face);
      render(entry, true);
      if (!isFull(entry)) return;
      if ("autosubmit" in form.dataset) {
        form.requestSubmit();
      } else {
        activate(nextIncomplete(entry) ?? entry);
      }
    });

    for (const control of form.querySelectorAll("[data-submit-on-change]")) {
      control.addEventListener("change", () => form.requestSubmit());
    }

    entries = Array.from(form.querySelectorAll("[data-dice-entry]"), makeEntry);
    activate(entries.find((e) => !isFull(e)) ?? null);
    enhanceAddHand(form, (scope) => {
      const entry = makeEntry(scope);
      entries.push(entry);
      activate(entry);
    });
  }

  // "Dodaj gracza" without a round trip: copy the row template, count it in `hands`.
  function enhanceAddHand(form, onAdded) {
    const add = form.querySelector("[data-add-hand]");
    const template = form.querySelector("template[data-hand-template]");
    const list = form.querySelector("[data-hands]");
    const count = form.querySelector("[data-hand-count]");
    if (!add || !template || !list || !count) return;
    const max = Number(list.dataset.maxHands);
    add.addEventListener("click", (event) => {
      event.preventDefault();
      const index = list.querySelectorAll("[data-hand]").length;
      const html = template.innerHTML
        .replaceAll("__INDEX__", String(index))
        .replaceAll("__NUMBER__", String(index + 1));
      list.insertAdjacentHTML("beforeend", html);
      count.value = String(index + 1);
      const row = list.lastElementChild;
      onAdded(row);
      // Focus the dice, not the name: a name field would open the phone's keyboard.
      row.querySelector("[data-dice-slots] button").focus();
      if (index + 1 >= max) add.hidden = true;
    });
  }
})();
