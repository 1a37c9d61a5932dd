// Entry of the language server (dist/language-server.js). The extension starts it over IPC;
// other editors run `node dist/language-server.js --stdio`.
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startServer } from './server';

// createConnection reads the transport from the command line: --stdio, --node-ipc or --socket=N.
startServer(createConnection(ProposedFeatures.all));
