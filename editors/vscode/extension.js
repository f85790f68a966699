// The cardgame extension: starts `cardgame lsp` (the language server of the cardgame package)
// for .cardgame files and talks to it over standard input and output.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function serverOptions() {
  const config = vscode.workspace.getConfiguration("cardgame");
  const command = config.get("server.command", "cardgame");
  const args = config.get("server.args", ["lsp"]);
  return { command, args, transport: TransportKind.stdio };
}

async function start() {
  client = new LanguageClient(
    "cardgame",
    "cardgame language server",
    serverOptions(),
    {
      documentSelector: [
        { scheme: "file", language: "cardgame" },
        { scheme: "untitled", language: "cardgame" },
      ],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.cardgame") },
    }
  );
  await client.start();
}

exports.activate = async (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand("cardgame.restartServer", async () => {
      if (client) {
        await client.stop();
      }
      await start();
    })
  );
  await start();
};

exports.deactivate = () => (client ? client.stop() : undefined);
