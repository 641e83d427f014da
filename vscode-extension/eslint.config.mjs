// Lint rules for the extension's TypeScript and the end-to-end test script.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
    { ignores: ['dist/**', 'out/**', 'bundled/**', 'node_modules/**'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        files: ['src/**/*.ts'],
        languageOptions: { parserOptions: { project: './tsconfig.json' } },
        rules: {
            '@typescript-eslint/no-floating-promises': 'error',
            '@typescript-eslint/no-misused-promises': 'error',
            eqeqeq: 'error',
            curly: 'error',
        },
    },
    {
        files: ['e2e/**/*.js', 'scripts/**/*.js', 'test/**/*.js'],
        languageOptions: {
            sourceType: 'commonjs',
            globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly', document: 'readonly', setTimeout: 'readonly' },
        },
        rules: { '@typescript-eslint/no-require-imports': 'off' },
    },
);
