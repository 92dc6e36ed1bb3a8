// A real client for the resources end-to-end test: the official TypeScript
// SDK over streamable HTTP lists the library's resources, reads one,
// subscribes to it, prints "subscribed" on a line of its own, then waits
// (10 s at most) for notifications/resources/updated. Usage:
//   node ts-http-resources.mjs SDK_PREFIX URL TOKEN URI
// Prints one JSON object: the resources listed, the text read and the URI
// of the update heard. Exits 1 with the error on stderr on any failure.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , sdk, url, token, uri] = process.argv;
const load = (p) => import(pathToFileURL(path.join(sdk, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href);

try {
  const { Client } = await load('client/index.js');
  const { StreamableHTTPClientTransport } = await load('client/streamableHttp.js');
  const { ResourceUpdatedNotificationSchema } = await load('types.js');
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'ts-http-resources', version: '1' });
  let heard;
  const updated = new Promise((resolve) => {
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { heard = n.params.uri; resolve(); });
  });
  await client.connect(transport);
  const listed = (await client.listResources()).resources.map((r) => r.uri);
  const read = (await client.readResource({ uri })).contents.map((c) => c.text).join('');
  await client.subscribeResource({ uri });
  console.log('subscribed');
  await Promise.race([updated, new Promise((resolve) => setTimeout(resolve, 10000))]);
  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify({ listed, read, updated: heard || '' }));
} catch (err) {
  console.error(String(err && err.stack ? err.stack : err));
  process.exit(1);
}
