// The machines that share a spot at a zoom, drawn as one cluster (supercluster): a cluster takes
// the colour of its most urgent machine, so that one red machine among green ones shows red.
import Supercluster from 'supercluster';
import type { MapMachine } from '../../api/types';
import { hasPoint, needRank } from './planning-logic';

/** Machines closer than this many pixels join a cluster (a cluster is up to 40 pixels wide). */
export const CLUSTER_RADIUS = 40;
/** The last zoom with clusters: closer (a street), every machine is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 15;

interface MachineProps {
  id: string;
  /** `needRank` of its need. */
  rank: number;
  /** 1 when chosen for the plan. */
  chosen: number;
}

/** What a cluster says of its machines: the most urgent need's rank, how many are chosen. */
interface Summary {
  rank: number;
  chosen: number;
}

export interface MachineCluster {
  id: number;
  latitude: number;
  longitude: number;
  count: number;
  /** `needRank` of its most urgent machine. */
  rank: number;
  chosen: number;
  /** The zoom at which it splits (past `CLUSTER_MAX_ZOOM`: its machines share one spot). */
  splitsAt: number;
}

export interface ClusteredView {
  /** The machines drawn on their own, by id. */
  alone: string[];
  clusters: MachineCluster[];
}

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The clusters of a set of machines; `at` tells them for a view. */
export function clusterMachines(machines: readonly MapMachine[], chosen: ReadonlySet<string>) {
  const index = new Supercluster<MachineProps, Summary>({
    radius: CLUSTER_RADIUS,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: ({ rank, chosen: count }) => ({ rank, chosen: count }),
    reduce: (summary, other) => {
      summary.rank = Math.max(summary.rank, other.rank);
      summary.chosen += other.chosen;
    },
  });
  index.load(
    machines.filter(hasPoint).map((machine) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [machine.longitude, machine.latitude] },
      properties: { id: machine.id, rank: needRank(machine.need), chosen: chosen.has(machine.id) ? 1 : 0 },
    })),
  );
  return {
    at(bounds: Bounds, zoom: number): ClusteredView {
      const alone: string[] = [];
      const clusters: MachineCluster[] = [];
      for (const item of index.getClusters([bounds.west, bounds.south, bounds.east, bounds.north], Math.floor(zoom))) {
        const [longitude, latitude] = item.geometry.coordinates;
        const props = item.properties;
        if ('cluster' in props && props.cluster) {
          const id = props.cluster_id;
          clusters.push({ id, latitude, longitude, count: props.point_count, rank: props.rank, chosen: props.chosen, splitsAt: index.getClusterExpansionZoom(id) });
        } else alone.push((props as MachineProps).id);
      }
      return { alone, clusters };
    },
  };
}

/**
 * Where the `index`-th of `count` markers sharing one spot is drawn, in pixels from it: around a
 * small ring, so that each can be seen and clicked (one alone stays on its spot).
 */
export function fanOut(index: number, count: number, radius = 12): { x: number; y: number } {
  if (count <= 1) return { x: 0, y: 0 };
  const angle = (2 * Math.PI * index) / count - Math.PI / 2;
  return { x: Math.round(radius * Math.cos(angle) * 100) / 100, y: Math.round(radius * Math.sin(angle) * 100) / 100 };
}
