/** Replaced at build time (vite.config.ts) with the page's and @runback/verify's versions. */
declare const __WEB_VERSION__: string;
declare const __VERIFY_VERSION__: string;
