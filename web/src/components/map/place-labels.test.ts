import { describe, expect, it } from 'vitest';
import { cellsInView, chooseLabels, minPopulation, type LabelLayout, type Place } from './place-labels';

/** A flat projection: a degree is 10 pixels, north up, (0, 0) at 50° N 0° E. */
const layout = (patch: Partial<LabelLayout> = {}): LabelLayout => ({
  zoom: 11,
  width: 400,
  height: 300,
  project: (latitude, longitude) => ({ x: longitude * 10, y: (50 - latitude) * 10 }),
  charWidth: 6,
  lineHeight: 16,
  most: 50,
  ...patch,
});

const place = (name: string, latitude: number, longitude: number, population: number): Place => [name, latitude, longitude, population];

describe('the place names a map shows', () => {
  it('asks more people of a place the further out the map is', () => {
    const zooms = [3, 4, 5, 6, 7, 8, 9, 10, 11, 15];
    const needed = zooms.map(minPopulation);
    expect([...needed].sort((a, b) => b - a)).toEqual(needed);
    expect(minPopulation(11)).toBe(0);
    expect(minPopulation(7)).toBe(100_000);
    expect(minPopulation(2)).toBe(3_000_000);
  });

  it('names the most populous first and drops a smaller one that would overlap it', () => {
    const labels = chooseLabels([place('Small', 45, 10, 2_000), place('Big', 45, 10.2, 500_000), place('Far', 40, 20, 3_000)], layout());
    expect(labels.map((label) => label.name)).toEqual(['Big', 'Far']);
    expect(labels[0]).toMatchObject({ side: 'right', offset: 0 });
  });

  it('leaves out the places too small for the zoom and those whose name would leave the map', () => {
    const labels = chooseLabels([place('Town', 45, 10, 20_000), place('City', 45, 20, 200_000), place('Edge', 45, 39, 900_000)], layout({ zoom: 7 }));
    // Edge's name would pass the map's side to the right of its dot: it goes to its left.
    expect(labels.map((label) => [label.name, label.side])).toEqual([
      ['Edge', 'left'],
      ['City', 'right'],
    ]);
  });

  it('writes a name clear of the markers: beside them, else beyond the one on the place', () => {
    // A marker just right of Lyon: its name goes to the left.
    const left = chooseLabels([place('Lyon', 45, 10, 500_000)], layout({ avoid: [{ x: 125, y: 50 }], avoidRadius: 10 }));
    expect(left).toEqual([{ name: 'Lyon', latitude: 45, longitude: 10, side: 'left', offset: 0 }]);
    // A marker on Lyon: the name starts past it.
    const beyond = chooseLabels([place('Lyon', 45, 10, 500_000)], layout({ avoid: [{ x: 100, y: 50 }], avoidRadius: 10 }));
    expect(beyond).toEqual([{ name: 'Lyon', latitude: 45, longitude: 10, side: 'right', offset: 16 }]);
    // Markers all round: no name.
    const boxed = chooseLabels([place('Lyon', 45, 10, 500_000)], layout({ avoid: [{ x: 100, y: 50 }, { x: 130, y: 50 }, { x: 70, y: 50 }], avoidRadius: 10 }));
    expect(boxed).toEqual([]);
  });

  it('stops at the most names asked for', () => {
    const many = Array.from({ length: 20 }, (_, index) => place(`P${index}`, 49 - index, 1, 10_000 + index));
    expect(chooseLabels(many, layout({ most: 5 }))).toHaveLength(5);
  });
});

describe('the cells of towns a view needs', () => {
  const index = { cellDegrees: 5, cells: ['9_0', '9_1', '8_1', '-1_-1'] };

  it('are none from afar, those of the view that exist closer', () => {
    const lyon = { south: 45.5, west: 4.5, north: 46, east: 5.2 };
    expect(cellsInView(lyon, 7, index)).toEqual([]);
    expect(cellsInView(lyon, 10, index)).toEqual(['9_0', '9_1']);
    expect(cellsInView({ south: -2, west: -2, north: 1, east: 1 }, 9, index)).toEqual(['-1_-1']);
  });
});
