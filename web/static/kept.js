// What this phone keeps: in localStorage across visits (`phone`), in sessionStorage for
// this tab (`visit`). A browser that keeps nothing (private mode) keeps it for the page.

const kept = (store) => {
  const memory = new Map();
  return {
    get(key, fallback) {
      try {
        return JSON.parse(store.getItem(`pegboard.${key}`)) ?? fallback;
      } catch {
        return memory.has(key) ? memory.get(key) : fallback;
      }
    },
    set(key, value) {
      memory.set(key, value);
      try {
        store.setItem(`pegboard.${key}`, JSON.stringify(value));
      } catch {
        // kept in memory only
      }
    },
  };
};

const none = { getItem: () => null, setItem: () => { throw new Error("no storage"); } };
export const phone = kept(globalThis.localStorage ?? none);
export const visit = kept(globalThis.sessionStorage ?? none);
