export * from './api.ts';
export * from './browser.ts';
export * from './bundle.ts';
export * from './paths.ts';
export * from './server.ts';
export * from './suite.ts';
export * from './ui.ts';
