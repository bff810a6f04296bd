/**
 * A test or mock server on 127.0.0.1 (never another interface): its URL once it listens, and a
 * close that drops open keep-alive connections, so a test's afterAll does not hang on them.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenLocally(server: Server, port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
