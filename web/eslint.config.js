// ESLint for the phone page's modules (static/) and their unit tests (test/):
// tests/test_web_js.py runs it with the rest of the suite.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["static/vendor/**", "node_modules/**"] },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: globals.browser },
    rules: {
      "no-implicit-globals": "error",
      "no-restricted-globals": ["error", "event", "name", "status", "length"],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
      "no-shadow": "error",
    },
  },
  {
    files: ["test/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: globals.node },
  },
];
