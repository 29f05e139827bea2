// What the demo runs against, in this process: a sandbox of the service and a webhook listener
// sharing one secret (the sandbox signs, the listener verifies) and one manual clock.
import { createManualClock, startSandbox, type ManualClock, type Sandbox, type SandboxWorkspace } from '../sandbox/index.js';
import { startListener, type DeliveryEvent, type Listener } from '../listen/index.js';
import { generateWebhookSecret } from '../wire/webhook-signing.js';
import { listenerClockOn } from './clock.js';

export interface DemoServices {
  clock: ManualClock;
  sandbox: Sandbox;
  listener: Listener;
  /** The sandbox's demo workspace (its key logs in). */
  workspace: SandboxWorkspace;
  /** Deliveries the listener accepted, in arrival order. */
  events: DeliveryEvent[];
  close(): Promise<void>;
}

export async function startServices(options: { seed: number; failureRate: number }): Promise<DemoServices> {
  const clock = createManualClock();
  const webhookSecret = generateWebhookSecret();
  const listener = await startListener({ port: 0, secret: webhookSecret, clock: listenerClockOn(clock) });
  const events: DeliveryEvent[] = [];
  listener.on('event', (e) => events.push(e));
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ port: 0, seed: options.seed, failureRate: options.failureRate, webhookUrl: listener.url, webhookSecret, clock });
  } catch (err) {
    await listener.close();
    throw err;
  }
  const workspace = sandbox.workspaces.find((w) => w.name === 'demo');
  if (!workspace) {
    await Promise.allSettled([listener.close(), sandbox.close()]);
    throw new Error('the sandbox has no demo workspace');
  }
  return {
    clock,
    sandbox,
    listener,
    workspace,
    events,
    close: async () => {
      await Promise.allSettled([listener.close(), sandbox.close()]);
    },
  };
}
