// The arbiter, enhanced. Without this file the forms are plain GET forms with a text input of
// five digits per roll.
//
// Each [data-dice] is one roll of the dice widget (dice.js); the form's one pad [data-pad] fills
// the active roll. When a roll is complete, a form marked data-autosubmit submits; otherwise the
// next incomplete roll becomes active (poker: one hand after another).
(() => {
  "use strict";

  for (const form of document.querySelectorAll("[data-arbiter-form]")) {
    enhance(form);
  }

  function enhance(form) {
    const pad = form.querySelector("[data-pad]");
    if (!pad) return;
    const rolls = [];
    let active = null;

    function add(scope) {
      // A cleared die makes its roll the one the pad fills; typed dice change nothing else.
      const roll = window.kosciDice.roll(scope, pad, (r, how) => {
        if (how === "clear") activate(r);
      });
      roll.root.querySelector("[data-dice-input]").addEventListener("focus", () => activate(roll));
      scope.addEventListener("click", (event) => {
        if (!event.target.closest("input, select, button, label")) activate(roll);
      });
      rolls.push(roll);
      return roll;
    }

    function activate(roll) {
      active = roll;
      for (const r of rolls) r.root.classList.toggle("is-active", r === roll);
    }

    function nextIncomplete(from) {
      const start = rolls.indexOf(from);
      for (let step = 1; step <= rolls.length; step += 1) {
        const candidate = rolls[(start + step) % rolls.length];
        if (!candidate.full()) return candidate;
      }
      return null;
    }

    window.kosciDice.pad(pad, (face) => {
      // The active roll, else the next incomplete one, else the next roll in order, which
      // starts again: the table has moved on to a new roll (a new round of poker).
      let roll = active ?? rolls[0];
      if (roll.full() && active) {
        roll = nextIncomplete(roll) ?? rolls[(rolls.indexOf(roll) + 1) % rolls.length];
      }
      activate(roll);
      roll.add(face);
      if (!roll.full()) return;
      if ("autosubmit" in form.dataset) {
        form.requestSubmit();
      } else {
        activate(nextIncomplete(roll) ?? roll);
      }
    });

    for (const control of form.querySelectorAll("[data-submit-on-change]")) {
      control.addEventListener("change", () => form.requestSubmit());
    }

    for (const scope of form.querySelectorAll("[data-dice]")) add(scope);
    activate(rolls.find((r) => !r.full()) ?? null);
    enhanceAddHand(form, (scope) => activate(add(scope)));
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
      row.querySelector("[data-slots] button").focus();
      if (index + 1 >= max) add.hidden = true;
    });
  }
})();
