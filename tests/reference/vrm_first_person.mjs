// three-vrm 3.5.5's first-person layers on sinew's test avatars
// (tests/data/vrm/avatar_vrm1.gltf and avatar_vrm0.vrm): after
// VRMFirstPerson.setup(), which meshes a first-person and a third-person
// camera see, and how many triangles the `auto` meshes' first-person
// copies keep. tests/tools/test_avatar_program.c (test_first_person) and
// tests/tools/test_avatar.sh expect the same:
//   Hat (rigid, below the head, auto)  first person: hidden
//   Ears (skinned to the head, auto)   first person: its copy keeps 0 triangles
//   Body (one vertex on the head)      first person: its copy keeps 1 of 2
//                                      (sinew draws the same copy)
//   Hair thirdPersonOnly, Arms firstPersonOnly, Face (rigid, auto) both
// and on tests/data/vrm/avatar_erase.gltf (every mesh skinned, auto), which
// tests/tools/test_avatar_program.c (test_erase) and test_avatar.sh expect:
//   Cape    first person: its copy keeps 3 of 16 triangles (13 erased)
//   Cloak   a group: the quad's copy keeps 2 of 2, the strip's 3 of 4
//   Helmet  a group below the head: hidden in first person
//   Visor   below the head, one primitive: its copy keeps 2 of 2
// (a mesh's first-person copy is named "<mesh>(erase)"; the original is
// then third person only)
//
//   NODE_PATH=/path/to/node_modules node tests/reference/vrm_first_person.mjs
//
// (prints "skipped: ..." and exits 0 without three and @pixiv/three-vrm.)
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

for (const file of ['avatar_vrm1.gltf', 'avatar_vrm0.vrm', 'avatar_erase.gltf']) {
  const bytes = fs.readFileSync(path.join(data, file));
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await new Promise((resolve, reject) =>
    loader.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '', resolve, reject));
  const vrm = gltf.userData.vrm;
  vrm.firstPerson.setup();
  const first = 1 | (1 << vrm.firstPerson.firstPersonOnlyLayer);
  const third = 1 | (1 << vrm.firstPerson.thirdPersonOnlyLayer);
  console.log(file);
  vrm.scene.traverse((o) => {
    if (!o.isMesh) return;
    const tris = o.geometry.index ? o.geometry.index.count / 3 : o.geometry.attributes.position.count / 3;
    console.log(`  ${o.name}: first person ${o.layers.mask & first ? 'shown' : 'hidden'}, ` +
                `third person ${o.layers.mask & third ? 'shown' : 'hidden'}, ${tris} triangles`);
  });
}
