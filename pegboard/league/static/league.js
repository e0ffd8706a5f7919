// The league's page: the admin's forms are sent as JSON with the session's CSRF token
// (a night file as it is), and the page is drawn again when a change is made.
"use strict";

const csrf = () => document.querySelector('meta[name="csrf"]').content;

function body(form) {
  if (form.dataset.file) return form.querySelector('input[type="file"]').files[0];
  const fields = {};
  for (const input of form.querySelectorAll("input")) {
    if (input.value === "") continue;
    if (input.name === form.dataset.list) {
      fields[input.name] = input.value.trim().split(/\s+/).filter(Boolean).map(Number);
    } else fields[input.name] = input.type === "number" ? Number(input.value) : input.value;
  }
  return JSON.stringify(fields);
}

document.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-api]");
  if (!form) return;
  event.preventDefault();
  const said = form.querySelector(".answer");
  const answer = await fetch(form.dataset.api, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: body(form),
  });
  const data = await answer.json().catch(() => ({}));
  said.textContent = answer.ok ? data.said || "✓" : data.error || "?";
  if (answer.ok && form.dataset.reload === "page") setTimeout(() => location.reload(), 800);
});
