import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Placeholder: the web app (built by Vite) will be served from here, at / (the API stays under /api).
export default fp(async function webPlugin(_app: FastifyInstance) {}, { name: 'web' });
