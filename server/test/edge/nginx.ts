// The nginx edge helpers live beside the edge-load bench, which uses them too.
export * from '../../src/scripts/nginx-edge.ts';
