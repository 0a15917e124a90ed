// Spring bones as three-vrm simulates them: the expected numbers of
// tests/vrm/test_spring_three_vrm.py (tests/data/vrm/spring_*.three-vrm.json).
//
//   node tests/reference/spring_three_vrm.mjs NODE_MODULES MODEL OUT.json [TIMES]
//
// NODE_MODULES: a node_modules folder with three (0.180) and
// @pixiv/three-vrm-springbone (3.5.5). MODEL: a GLB (.glb or .vrm, no
// external files) with VRMC_springBone or VRM 0.x secondaryAnimation and an
// animation. TIMES: comma-separated seconds (default 0,0.5,1,2).
//
// What it does, the loop of a three-vrm application at 60 frames per
// second: the model's first animation through three's AnimationMixer at
// time 0, world matrices, springBoneManager.reset(); then for every step
// n = 1, 2, ... up to the last time: mixer.setTime(n/60),
// springBoneManager.update(1/60), scene.updateMatrixWorld() (as a render
// would). At each requested time (a whole number of steps) it writes every
// node's world position, by glTF node index.
//
// Without node's modules it prints "skipped: ..." and exits 0: nothing in
// the test suite runs it (the test reads the committed output).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [modules, model, out, timesText] = process.argv.slice(2);
if (!modules || !model || !out) {
  console.error('usage: node spring_three_vrm.mjs NODE_MODULES MODEL OUT.json [TIMES]');
  process.exit(2);
}
const threePath = path.join(modules, 'three', 'build', 'three.module.js');
const loaderPath = path.join(modules, 'three', 'examples', 'jsm', 'loaders', 'GLTFLoader.js');
const springPath = path.join(modules, '@pixiv', 'three-vrm-springbone', 'lib', 'three-vrm-springbone.module.js');
for (const p of [threePath, loaderPath, springPath]) {
  if (!fs.existsSync(p)) {
    console.log(`skipped: ${p} not found (three and @pixiv/three-vrm-springbone are needed)`);
    process.exit(0);
  }
}
const THREE = await import(pathToFileURL(threePath));
const { GLTFLoader } = await import(pathToFileURL(loaderPath));
const { VRMSpringBoneLoaderPlugin } = await import(pathToFileURL(springPath));

const STEP = 1 / 60;
const times = (timesText || '0,0.5,1,2').split(',').map(Number);
const steps = times.map((t) => Math.round(t / STEP));

const bytes = fs.readFileSync(model);
const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const loader = new GLTFLoader();
loader.register((parser) => new VRMSpringBoneLoaderPlugin(parser));
const gltf = await loader.parseAsync(data, '');
const manager = gltf.userData.vrmSpringBoneManager;
if (!manager) {
  console.error(`${model}: no spring bones read`);
  process.exit(1);
}
const nodes = await gltf.parser.getDependencies('node');
const scene = gltf.scene;
const mixer = new THREE.AnimationMixer(scene);
if (gltf.animations.length) mixer.clipAction(gltf.animations[0]).play();

const last = Math.max(...steps);
const wanted = new Map();
steps.forEach((s, k) => wanted.set(s, [...(wanted.get(s) || []), k]));
const byTime = times.map(() => null);
function keep(step) {
  for (const k of wanted.get(step) || []) {
    const v = new THREE.Vector3();
    byTime[k] = nodes.map((node) => node.getWorldPosition(v).toArray());
  }
}

mixer.setTime(0);
scene.updateMatrixWorld(true);
manager.reset();
scene.updateMatrixWorld(true);
keep(0);
for (let n = 1; n <= last; n++) {
  mixer.setTime(n * STEP);
  manager.update(STEP);
  scene.updateMatrixWorld(true);
  keep(n);
}

const result = {
  generator: 'tests/reference/spring_three_vrm.mjs (three ' + THREE.REVISION + ', @pixiv/three-vrm-springbone)',
  model: path.basename(model),
  times,
  nodes: nodes.map((node, i) => ({
    node_index: i,
    name: node.name,
    position_by_time: byTime.map((p) => p[i]),
  })),
};
fs.writeFileSync(out, JSON.stringify(result, null, 1) + '\n');
console.log(`wrote ${out}`);
