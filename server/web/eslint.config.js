// ESLint for the page: the recommended rules, and none of the ways to build markup or inline
// style from data. The server's Content-Security-Policy blocks inline script and style at run
// time; these rules refuse them before they are written.
import js from "@eslint/js";
import globals from "globals";

const markup = "the page never builds markup from data: create DOM nodes and set textContent, properties or attributes";
const style = "the Content-Security-Policy forbids inline styles: use a class, or one property through element.style";

export default [
  js.configs.recommended,
  {
    files: ["app.js", "review.js", "offline-worker.js", "review-worker.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      "no-restricted-properties": [
        "error",
        { property: "innerHTML", message: markup },
        { property: "outerHTML", message: markup },
        { property: "insertAdjacentHTML", message: markup },
        { property: "setHTMLUnsafe", message: markup },
        { property: "createContextualFragment", message: markup },
        { property: "parseHTMLUnsafe", message: markup },
        { property: "srcdoc", message: markup },
        { object: "document", property: "write", message: markup },
        { object: "document", property: "writeln", message: markup },
        { property: "cssText", message: style },
      ],
      "no-restricted-syntax": [
        "error",
        // The same properties reached with brackets, which no-restricted-properties misses.
        {
          selector: "MemberExpression[computed=true][property.value=/^(innerHTML|outerHTML|insertAdjacentHTML|setHTMLUnsafe|srcdoc|write|writeln|cssText)$/]",
          message: markup,
        },
        { selector: "NewExpression[callee.name='DOMParser']", message: markup },
        { selector: "CallExpression[callee.property.name='setAttribute'][arguments.0.value=/^style$/i]", message: style },
        { selector: "CallExpression[callee.property.name='setAttributeNS'][arguments.1.value=/^style$/i]", message: style },
        // Attributes given as an object (el(name, {...})) reach setAttribute too.
        { selector: "ObjectExpression > Property[key.name='style'], ObjectExpression > Property[key.value='style']", message: style },
        {
          selector: "CallExpression[callee.property.name='setAttribute'][arguments.0.value=/^on/i]",
          message: "event handler attributes are inline script: use addEventListener",
        },
      ],
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-script-url": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: "error",
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
