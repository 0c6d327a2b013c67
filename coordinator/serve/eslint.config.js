// ESLint for the web pages' scripts (src/**/*.js): ES modules in a browser,
// served as they are (no build step); and html.js's tests (tests/, Node).
// `npm ci && npx eslint --max-warnings 0 .` (.ci/run's "js lint" stage).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/"] },
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "eqeqeq": "error",
      "no-implicit-globals": "error",
      "no-undef": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "all" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-shadow": ["error", { builtinGlobals: false }],
      "no-use-before-define": ["error", { functions: false, classes: true, variables: false }],
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-restricted-syntax": ["error",
        {
          selector: "AssignmentExpression > MemberExpression.left[object.name=/^(window|globalThis|self)$/]",
          message: "No globals: pass state explicitly (import, or an argument).",
        },
        {
          selector: "AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]",
          message: "HTML only through setHtml(el, html`...`) (html.js), which escapes every value.",
        },
        {
          selector: "CallExpression[callee.property.name=/^(insertAdjacentHTML|write|writeln)$/]",
          message: "HTML only through setHtml(el, html`...`) (html.js), which escapes every value.",
        },
      ],
    },
  },
  {
    // html.js's tests (Node's test runner) and this file: Node modules.
    files: ["tests/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
    rules: { "eqeqeq": "error", "prefer-const": "error", "no-var": "error" },
  },
  {
    // The one place that sets innerHTML: from an Html made by the html tag.
    files: ["src/explore/html.js"],
    rules: { "no-restricted-syntax": "off" },
  },
];
