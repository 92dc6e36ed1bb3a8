// A real client for the HTTP end-to-end test: the official TypeScript SDK's
// StreamableHTTPClientTransport. Usage:
//   node ts-http-client.mjs SDK_PREFIX URL TOKEN CALLS_JSON
// SDK_PREFIX is the npm prefix holding node_modules/@modelcontextprotocol/sdk;
// CALLS_JSON is a list of [tool, arguments]. Prints one JSON object: the
// negotiated protocol, whether a session was opened, the tool names and each
// call's text and isError. Exits 1 with the error on stderr on any failure.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , sdk, url, token, callsJSON] = process.argv;
const load = (p) => import(pathToFileURL(path.join(sdk, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href);

try {
  const { Client } = await load('client/index.js');
  const { StreamableHTTPClientTransport } = await load('client/streamableHttp.js');
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'ts-http-e2e', version: '1' });
  await client.connect(transport);
  const out = {
    protocol: transport.protocolVersion,
    session: Boolean(transport.sessionId),
    tools: (await client.listTools()).tools.map((t) => t.name),
    calls: {},
  };
  for (const [name, args] of JSON.parse(callsJSON)) {
    const res = await client.callTool({ name, arguments: args });
    out.calls[name] = {
      isError: Boolean(res.isError),
      text: res.content.filter((c) => c.type === 'text').map((c) => c.text).join(''),
    };
  }
  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify(out));
} catch (err) {
  console.error(String(err && err.stack ? err.stack : err));
  process.exit(1);
}
