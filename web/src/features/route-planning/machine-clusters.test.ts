import { describe, expect, it } from 'vitest';
import type { MapMachine, PlanRoute } from '../../api/types';
import { CLUSTER_MAX_ZOOM, clusterMachines, fanOut } from './machine-clusters';
import { inDrawingOrder, needRank, pointsToFit, rankLevel } from './planning-logic';

const machine = (id: string, need: string, latitude: number | null = 45.76, longitude: number | null = 4.83): MapMachine => ({
  id,
  name: `Machine ${id}`,
  need,
  offline: false,
  units_to_bring: 0,
  latitude,
  longitude,
});

const WORLD = { west: -180, south: -85, east: 180, north: 85 };

describe('the order the map draws machines in', () => {
  it('ranks the needs: now over soon over later over one unknown', () => {
    expect(['now', 'soon', 'later', 'what'].map(needRank)).toEqual([3, 2, 1, 0]);
    expect([3, 2, 1, 0].map(rankLevel)).toEqual(['now', 'soon', 'later', null]);
  });

  it('draws the least urgent first, so that the most urgent lie on top; the list order kept within a need', () => {
    const machines = [machine('a', 'now'), machine('b', 'later'), machine('c', 'soon'), machine('d', 'later'), machine('e', 'what'), machine('f', 'now')];
    expect(inDrawingOrder(machines).map((item) => item.id)).toEqual(['e', 'b', 'd', 'c', 'a', 'f']);
  });
});

describe('the clusters of the map', () => {
  // Lyon: twelve green machines and one red among them, a few hundred metres apart; Milan: two greens.
  const lyon = Array.from({ length: 12 }, (_, index) => machine(`l${index}`, 'later', 45.76 + index * 0.002, 4.83));
  const red = machine('red', 'now', 45.765, 4.831);
  const milan = [machine('m1', 'later', 45.46, 9.19), machine('m2', 'later', 45.47, 9.2)];
  const fleet = [red, ...lyon, ...milan, machine('nowhere', 'now', null, null)];

  it('take the colour of their most urgent machine, wherever it comes in the list', () => {
    const view = clusterMachines(fleet, new Set()).at(WORLD, 5);
    expect(view.alone).toEqual([]);
    const byCount = Object.fromEntries(view.clusters.map((cluster) => [cluster.count, cluster.rank]));
    expect(byCount).toEqual({ 13: 3, 2: 1 });
    // A green-only list with a red at its end gives red too.
    const last = clusterMachines([...lyon, red], new Set()).at(WORLD, 5);
    expect(last.clusters.map((cluster) => rankLevel(cluster.rank))).toEqual(['now']);
  });

  it('count the machines chosen in them, and split as the map zooms in', () => {
    const index = clusterMachines(fleet, new Set(['red', 'l3']));
    const far = index.at(WORLD, 5);
    expect(far.clusters.find((cluster) => cluster.count === 13)?.chosen).toBe(2);
    const lyonCluster = far.clusters.find((cluster) => cluster.count === 13);
    expect(lyonCluster?.splitsAt).toBeGreaterThan(5);
    // Streets apart, every machine stands alone.
    const close = index.at(WORLD, CLUSTER_MAX_ZOOM + 1);
    expect(close.clusters).toEqual([]);
    expect(close.alone.sort()).toEqual([...lyon, red, ...milan].map((item) => item.id).sort());
  });

  it('leave out the machines outside the view', () => {
    const view = clusterMachines(fleet, new Set()).at({ west: 8, south: 44, east: 10, north: 47 }, 5);
    expect(view.clusters.map((cluster) => cluster.count)).toEqual([2]);
  });
});

describe('machines on one spot', () => {
  it('are fanned out around it, one alone staying on it', () => {
    expect(fanOut(0, 1)).toEqual({ x: 0, y: 0 });
    const ring = [0, 1, 2, 3].map((index) => fanOut(index, 4, 10));
    expect(ring).toEqual([
      { x: 0, y: -10 },
      { x: 10, y: 0 },
      { x: 0, y: 10 },
      { x: -10, y: 0 },
    ]);
  });
});

describe('the view the map fits', () => {
  const depot = { latitude: 45.7, longitude: 4.9 };
  const machines = [machine('a', 'now', 45.76, 4.83), machine('b', 'later', 45.46, 9.19), machine('c', 'soon', null, null)];
  const route = { stops: [{ machine_id: 'a', latitude: 45.76, longitude: 4.83 }] } as Pick<PlanRoute, 'stops'> as PlanRoute;

  it('holds every machine on the map and the depot without a plan', () => {
    expect(pointsToFit(machines, depot, [])).toEqual([
      [45.76, 4.83],
      [45.46, 9.19],
      [45.7, 4.9],
    ]);
  });

  it('holds a plan’s stops and the depot when a plan shows, not the whole fleet', () => {
    expect(pointsToFit(machines, depot, [route])).toEqual([
      [45.76, 4.83],
      [45.7, 4.9],
    ]);
    expect(pointsToFit(machines, null, [route])).toEqual([[45.76, 4.83]]);
  });
});
