// VRM expressions applied by three-vrm 3.5.5 on sinew's test avatars
// (tests/data/vrm/avatar_vrm1.gltf and avatar_vrm0.vrm, made by
// make_avatar_files.py): for each case, expression weights are set on the
// expression manager over an "animation" that left every morph weight at
// 0.7, then VRMExpressionManager.update() runs; printed: the Face mesh's
// morph weights (mouth, blink), FaceMat's map offset and repeat, BodyMat's
// colour, opacity and emissive. tests/tools/test_avatar_program.c holds
// its output as expected values.
//
//   NODE_PATH=/path/to/node_modules node tests/reference/vrm_expressions.mjs
//
// (node_modules with three and @pixiv/three-vrm; prints "skipped: ..." and
// exits 0 without them.) Node has no image decoder: a stand-in bitmap
// lets GLTFLoader make the textures, whose transforms are what is read.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

globalThis.self = globalThis;
globalThis.ProgressEvent ??= class { constructor(type, init) { Object.assign(this, init); this.type = type; } };
globalThis.createImageBitmap ??= async () => ({ width: 4, height: 2, close() {} });

const here = path.dirname(fileURLToPath(import.meta.url));
const data = path.join(here, '..', 'data', 'vrm');
let GLTFLoader, VRMLoaderPlugin;
try {
  const roots = (process.env.NODE_PATH || '').split(path.delimiter).filter(Boolean);
  const find = (rel) => {
    for (const r of roots) if (fs.existsSync(path.join(r, rel))) return pathToFileURL(path.join(r, rel)).href;
    return createRequire(import.meta.url).resolve(rel);
  };
  ({ GLTFLoader } = await import(find('three/examples/jsm/loaders/GLTFLoader.js')));
  ({ VRMLoaderPlugin } = await import(find('@pixiv/three-vrm/lib/three-vrm.module.js')));
} catch (e) {
  console.log(`skipped: three or @pixiv/three-vrm not found (${e.message.split('\n')[0]})`);
  process.exit(0);
}
console.warn = () => {};

// the same list as test_avatar_program.c's `cases`
const cases = [
  [['happy', 0.6]], [['happy', 0.4]], [['angry', 0.5]], [['happy', 1], ['aa', 1]], [['blink', 1], ['angry', 0.25]],
  [['blink', 1], ['wink', 0.5]], [['aa', 0.3], ['lookUp', 0.8]], [['angry', 1], ['happy', 0.7], ['blink', 0.2]],
];
const f = (x) => x.toFixed(7) + 'f';
for (const [fi, file] of ['avatar_vrm1.gltf', 'avatar_vrm0.vrm'].entries()) {
  for (const [ci, weights] of cases.entries()) {
    const bytes = fs.readFileSync(path.join(data, file));
    const loader = new GLTFLoader();
    loader.register((parser) => new VRMLoaderPlugin(parser));
    const gltf = await new Promise((resolve, reject) =>
      loader.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '', resolve, reject));
    const vrm = gltf.userData.vrm;
    const materials = {};
    let face = null;
    vrm.scene.traverse((o) => {
      if (o.material) materials[o.material.name] = o.material;
      if (o.isMesh && o.parent && o.parent.name === 'Face') face = o;
      if (o.isMesh && o.name === 'Face') face = o;
    });
    face.morphTargetInfluences.fill(0.7);
    for (const [name, w] of weights) vrm.expressionManager.setValue(name, w);
    vrm.expressionManager.update();
    const map = materials.FaceMat.map, body = materials.BodyMat;
    const out = [face.morphTargetInfluences[0], face.morphTargetInfluences[1], map.offset.x, map.offset.y,
                 map.repeat.x, map.repeat.y, body.color.r, body.color.g, body.color.b, body.opacity,
                 body.emissive.r, body.emissive.g, body.emissive.b];
    console.log(`    {${fi}, ${ci}, {${out.map(f).join(', ')}}},`);
  }
}
