// Expected node-constraint rotations from three-vrm (@pixiv/three-vrm-node-constraint
// 3.x with three.js), for tests/vrm/test_constraint.c: each file of
// tests/data/vrm/constraint_{roll,aim,rotation,chain}.gltf is loaded with
// three's GLTFLoader and VRMNodeConstraintLoaderPlugin, its clip "move" is
// set to each time by an AnimationMixer, the constraint manager updates,
// and every constrained node's local rotation is printed as C initialisers
// { file, time, node (file index), x, y, z, w }.
//
//   THREE_VRM_MODULES=/path/to/node_modules node tests/reference/constraint_reference.mjs
//
// The folder must hold three and @pixiv/three-vrm-node-constraint. Without
// it (or without node) the script says "skipped" and exits 0: the test
// suite never runs it, it holds the numbers printed here.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const data = join(here, '..', 'data', 'vrm');
const modules = process.env.THREE_VRM_MODULES;
const FILES = ['constraint_roll.gltf', 'constraint_aim.gltf', 'constraint_rotation.gltf', 'constraint_chain.gltf'];
const TIMES = [0, 0.25, 0.5, 1, 1.5, 2];

let THREE, GLTFLoader, VRMNodeConstraintLoaderPlugin;
try {
  if (!modules) throw new Error('THREE_VRM_MODULES is not set');
  const url = (p) => pathToFileURL(join(modules, p)).href;
  THREE = await import(url('three/build/three.module.js'));
  ({ GLTFLoader } = await import(url('three/examples/jsm/loaders/GLTFLoader.js')));
  ({ VRMNodeConstraintLoaderPlugin } = await import(
    url('@pixiv/three-vrm-node-constraint/lib/three-vrm-node-constraint.module.js')));
} catch (e) {
  console.log(`skipped: three-vrm not found (${e.message})`);
  process.exit(0);
}

// three's FileLoader (which reads the data: URI buffers) reports progress
// with the DOM's ProgressEvent, which node lacks.
if (typeof globalThis.ProgressEvent === 'undefined')
  globalThis.ProgressEvent = class { constructor(type, init) { Object.assign(this, { type }, init); } };

function load(name) {
  const text = readFileSync(join(data, name), 'utf8');
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMNodeConstraintLoaderPlugin(parser));
  return new Promise((resolve, reject) => loader.parse(text, '', (gltf) => resolve(gltf), reject));
}

const fmt = (v) => v.toFixed(9);
for (const [fileIndex, name] of FILES.entries()) {
  const gltf = await load(name);
  const manager = gltf.userData.vrmNodeConstraintManager;
  const nodes = await gltf.parser.getDependencies('node');
  const constrained = gltf.parser.json.nodes
    .map((n, i) => (n.extensions && n.extensions.VRMC_node_constraint ? i : -1))
    .filter((i) => i >= 0);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(gltf.animations.find((c) => c.name === 'move'));
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true; // time 2 is the last key, not the first again
  action.play();
  console.log(`    /* ${name} */`);
  for (const t of TIMES) {
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    manager.update();
    for (const i of constrained) {
      const q = nodes[i].quaternion;
      console.log(`    {${fileIndex}, ${t.toFixed(2)}f, ${i}, ${fmt(q.x)}, ${fmt(q.y)}, ${fmt(q.z)}, ${fmt(q.w)}},`);
    }
  }
}
