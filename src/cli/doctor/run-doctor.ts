import { checkConnectionStates } from './connection-states.js';
import { checkCoordinationMode } from './coordination-mode.js';
import type { DoctorCheck } from './doctor-check.js';
import { checkNodeVersion } from './node-version.js';
import { checkPlan } from './plan.js';
import { checkProxySettings } from './proxy-settings.js';
import { checkStorePermissions } from './store-permissions.js';

/** A check that threw (an unreadable store, a corrupt file) is a failed check, not a crashed doctor. */
async function settled(name: string, check: () => DoctorCheck | Promise<DoctorCheck>): Promise<DoctorCheck> {
  try {
    return await check();
  } catch (error) {
    return {
      name,
      status: 'fail',
      summary: error instanceof Error ? error.message : String(error),
      details: [],
    };
  }
}

/** Every check of `toolsteps doctor`, in the order they are printed. One file per check, under doctor/. */
export async function runDoctor(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck[]> {
  const [{ FileConnectionStore, defaultToolstepsHome }, { cliRegistry }] = await Promise.all([
    import('../../connection/file-store.js'),
    import('../cli-context.js'),
  ]);
  const home = defaultToolstepsHome(env);
  return [
    await settled('node', () => checkNodeVersion()),
    await settled('store', () => checkStorePermissions(home)),
    await settled('connections', async () =>
      checkConnectionStates(new FileConnectionStore(home), await cliRegistry()),
    ),
    await settled('proxy', () => checkProxySettings(env)),
    await settled('coordination', () => checkCoordinationMode(env)),
    await settled('plan', () => checkPlan(env)),
  ];
}
