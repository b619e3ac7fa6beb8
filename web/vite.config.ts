import { defineConfig } from "vite";

// Relative asset URLs: the page is served by the bot at its Activity's root, and Discord's proxy
// maps that root to the application's own domain.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", assetsDir: "assets", sourcemap: false, target: "es2022" },
});
