// Only the @vscode-elements components the timeline uses (each import registers one element).
import '@vscode-elements/elements/dist/vscode-button/index.js';
