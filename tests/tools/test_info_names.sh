#!/bin/sh
# `sinew info` names things: the node tree (skin joints, meshes, humanoid
# bones; bounded by default, --tree, --no-tree), the humanoid table (a
# VRM's own, or the one found from node names), VRM expressions with their
# bind counts, isBinary and overrides, look-at, first-person annotations,
# spring chains and colliders, node constraints and each material's
# shading (MToon, toon, unlit, PBR). Expected values are those the test
# files' generators write (tests/data/vrm/make_*.py), counted by hand; the
# JSON checks compare --json with those numbers too. Names from the file
# are escaped; a 100,000-node chain and a 100,000-node fan are listed
# within a time limit (quadratic work would take minutes). Needs
# SINEW_ASSETS for the Mixamo check only (skipped, saying so, when unset).
# Usage: sh test_info_names.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
VRM=$(cd "$(dirname "$0")/../data/vrm" && pwd)
GLTF=$(cd "$(dirname "$0")/../data/gltf" && pwd)

out_has_text() { grep -qxF -e "$1" "$WORK/out"; }
out_lacks() { ! grep -q -e "$1" "$WORK/out"; }
json_expr() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/out" "$1"; }
lines_are() { [ "$(wc -l <"$WORK/out")" -eq "$1" ]; }

sinew info --help
check "info --help documents --tree and --no-tree" sh -c "grep -q -e '--tree' '$WORK/out' && grep -q -e '--no-tree' '$WORK/out'"

# ---- the node tree ----------------------------------------------------------
# joint_chain.gltf: nodes[0] "tip" child of nodes[1] "root", both joints of
# skin 0; nodes[2] "body" draws mesh 0 "tri" with skin 0.
sinew info "$GLTF/joint_chain.gltf"
check "tree: exits 0" status_is 0
check "tree: header after the nodes line" sh -c "grep -A1 '^nodes: 3' '$WORK/out' | grep -qx 'node tree:'"
check "tree: root, a joint of skin 0" out_has_text '  node 1 "root" [joint of skin 0]'
check "tree: its child indented, a joint" out_has_text '    node 0 "tip" [joint of skin 0]'
check "tree: the skinned mesh node" out_has_text '  node 2 "body", mesh 0 "tri", skin 0'
sinew info "$GLTF/joint_chain.gltf" --no-tree
check "--no-tree: no tree" out_lacks '^node tree'
check "--no-tree: the nodes line stays" out_has '^nodes: 3 (2 roots'
sinew info "$GLTF/joint_chain.gltf" --json
check "json: joint_of_skins per node, file order" json_expr "[n['joint_of_skins'] for n in d['nodes']]==[[0],[0],[]]"
check "json: the old node keys stay" json_expr "all(set(['name','parent','mesh','skin','matrix']) <= set(n) for n in d['nodes'])"
check "json: the old top-level keys stay" json_expr "set(['model','generator','format','unit_scale_to_metres','up_axis_read','import_dropped_vertices','import_collapsed_nodes','default_scene','scenes','nodes','meshes','skins','animations','materials','textures','images','vrm','warnings']) <= set(d)"

# ---- a VRM 1.0 avatar (make_avatar_files.py) ---------------------------------
sinew info "$VRM/avatar_vrm1.gltf"
check "vrm1: exits 0" status_is 0
check "vrm1: humanoid table, leftUpperArm" out_has_text '    leftUpperArm: node 8 "LeftUpperArm"'
check "vrm1: humanoid table, hips" out_has_text '    hips: node 1 "Hips"'
check "vrm1: 19 bone lines" [ "$(grep -c '^    [a-zA-Z]*: node [0-9]* "' "$WORK/out")" -eq 19 ]
check "vrm1: tree marks humanoid bones" out_has_text '          node 8 "LeftUpperArm", humanoid leftUpperArm'
check "vrm1: tree marks joints and bones together" out_has_text '    node 1 "Hips" [joint of skin 0], humanoid hips'
check "vrm1: happy: 1 morph, 1 UV bind, binary, mouth block" out_has_text \
    '    expression "happy" (preset): 1 morph, 0 colour, 1 UV binds, binary, overrides blink none, look-at none, mouth block'
check "vrm1: angry: 2 colour binds, blink blend" out_has_text \
    '    expression "angry" (preset): 0 morph, 2 colour, 0 UV binds, overrides blink blend, look-at none, mouth none'
check "vrm1: wink is custom, blink block" out_has_text \
    '    expression "wink" (custom): 1 morph, 0 colour, 0 UV binds, overrides blink block, look-at none, mouth none'
check "vrm1: 9 expression lines" [ "$(grep -c '^    expression "' "$WORK/out")" -eq 9 ]
check "vrm1: look-at bone, offset (0, 0.05, 0.08)" out_has_text '    look-at: bone, offset from head (0, 0.05, 0.08)'
check "vrm1: first person, Hair thirdPersonOnly" out_has_text '    first person: node 22 "Hair" thirdPersonOnly'
check "vrm1: first person, Arms firstPersonOnly" out_has_text '    first person: node 23 "Arms" firstPersonOnly'
check "vrm1: the summary line is unchanged" out_has_text \
    '  expressions: 9, look-at: bone, first-person annotations: 6, VRM warnings: 0'
check "vrm1: no name lookup for a VRM" out_lacks '^humanoid (from node names'
check "vrm1: FaceMat is unlit (KHR_materials_unlit)" sh -c \
    "grep -A1 'material 0 \"FaceMat\"' '$WORK/out' | grep -qx '    shading: unlit (KHR_materials_unlit)'"
check "vrm1: BodyMat is PBR" sh -c \
    "grep -A1 'material 1 \"BodyMat\"' '$WORK/out' | grep -qx '    shading: PBR metallic-roughness'"
sinew info "$VRM/avatar_vrm1.gltf" --json
check "vrm1 json: humanoid from VRM, 19 bones, leftUpperArm node 8" json_expr \
    "d['humanoid']['source']=='VRM' and d['humanoid']['mapped']==19 and d['humanoid']['bones']['leftUpperArm']==8"
check "vrm1 json: the node says its bone" json_expr "d['nodes'][8]['humanoid_bone']=='leftUpperArm' and d['nodes'][0]['humanoid_bone'] is None"
check "vrm1 json: expression count kept, list added" json_expr \
    "d['vrm']['expressions']==9 and [e['name'] for e in d['vrm']['expression_list']]==['lookUp','lookDown','lookLeft','lookRight','happy','angry','blink','aa','wink']"
check "vrm1 json: happy" json_expr \
    "[(e['is_binary'],e['morph_binds'],e['color_binds'],e['texture_binds'],e['override_mouth'],e['preset']) for e in d['vrm']['expression_list'] if e['name']=='happy']==[(True,1,0,1,'block',True)]"
check "vrm1 json: look-at and first person" json_expr \
    "d['vrm']['look_at']['type']=='bone' and abs(d['vrm']['look_at']['offset_from_head_bone'][2]-0.08)<1e-6 and {'node':23,'type':'firstPersonOnly'} in d['vrm']['first_person']"
check "vrm1 json: material shading" json_expr "[m['shading'] for m in d['materials']]==['unlit','PBR metallic-roughness','PBR metallic-roughness']"
check "vrm1 json: no spring bones, no constraints" json_expr "d['spring_bones'] is None and d['node_constraints'] is None"

# ---- VRM 0.x: the same avatar; expression look-at, firstPersonBone -----------
sinew info "$VRM/avatar_vrm0.vrm"
check "vrm0: humanoid table, leftUpperArm" out_has_text '    leftUpperArm: node 8 "LeftUpperArm"'
check "vrm0: happy (0.x joy) binary" out_has '^    expression "happy" (preset): 1 morph, 0 colour, 1 UV binds, binary,'
check "vrm0: look-at expression, offset z turned (no -0)" out_has_text '    look-at: expression, offset from head (0, 0.05, -0.08)'
check "vrm0: firstPersonBone Head" out_has_text '    first-person bone: node 5 "Head"'

# ---- spring bones --------------------------------------------------------------
sinew info "$VRM/spring_sphere.glb"
check "spring_sphere: summary" out_has_text 'spring bones (VRMC_springBone): 1 chains, 4 joints, 1 colliders, 1 collider groups'
check "spring_sphere: the chain, its joints and group" out_has_text \
    '  chain 0 "hair A": 4 joints: node 2 "HairA1", node 3 "HairA2", node 4 "HairA3", node 5 "HairA4"; collider groups: 0 "body"'
check "spring_sphere: the collider" out_has_text '  collider 0: sphere, node 1 "Body"'
sinew info "$VRM/hair_vrm1.gltf"
check "hair_vrm1: sphere and capsule on Head" sh -c \
    "grep -qxF '  collider 0: sphere, node 3 \"Head\"' '$WORK/out' && grep -qxF '  collider 1: capsule, node 3 \"Head\"' '$WORK/out'"
check "hair_vrm1: group head holds both" out_has_text '  collider group 0 "head": colliders 0, 1'
sinew info "$VRM/hair_vrm0.vrm"
check "hair_vrm0: VRM 0.x source" out_has '^spring bones (VRM 0.x secondaryAnimation): 3 chains, 6 joints'
check "hair_vrm0: the hair chain root to tip" out_has \
    '^  chain 0 "hair": 3 joints: node 2 "Hair1", node 1 "Hair2", node 0 "Hair3"'
check "hair_vrm0: the tree marks spring joints" sh -c \
    "grep -qxF '        node 1 \"Hair2\", spring chain 0' '$WORK/out' && grep -qxF '        node 7 \"RibbonR\", spring chain 2' '$WORK/out'"
sinew info "$VRM/hair_vrm1.gltf" --json
check "hair_vrm1 json: nodes say their spring chain" json_expr "[n['spring_chain'] for n in d['nodes']][:4]==[0,0,0,-1]"
check "hair_vrm1 json: chains, groups, colliders" json_expr \
    "d['spring_bones']['source']=='VRMC_springBone' and d['spring_bones']['chains']==[{'name':'hair','joints':[2,1,0],'collider_groups':[0],'center':-1}] and [c['shape'] for c in d['spring_bones']['colliders']]==['sphere','capsule']"

# ---- node constraints (make_constraint_files.py) -----------------------------
sinew info "$VRM/constraint_aim.gltf"
check "constraints: summary line unchanged" out_has_text 'node constraints: 4 (roll 0, aim 4, rotation 0)'
check "constraints: source -> destination, axis, weight" out_has_text \
    '  aim: node 2 "LowerArm" -> node 6 "SleeveNegY", axis -Y, weight 0.6'
sinew info "$VRM/constraint_aim.gltf" --json
check "constraints json" json_expr \
    "[(c['type'],c['source'],c['destination'],c['axis']) for c in d['node_constraints']['constraints']]==[('aim',2,4,'+X'),('aim',2,6,'-Y'),('aim',3,7,'+Z'),('aim',3,8,'-Z')]"

# ---- material shading ------------------------------------------------------------
sinew info "$VRM/mtoon_features.gltf"
check "mtoon: MToon (VRMC_materials_mtoon)" out_has_text '    shading: MToon (VRMC_materials_mtoon)'
check "mtoon: not called unlit" out_lacks '^    shading: unlit'
sinew demo-asset -o "$WORK/demo.glb" --quiet
sinew info "$WORK/demo.glb"
check "demo: toon (SW_materials_toon) with its kind" out_has_text '    shading: toon (SW_materials_toon), hair'
check "demo: humanoid from node names, sinew demo table" out_has '^humanoid (from node names, sinew demo table): [0-9]* of 55 bones mapped'
check "demo: the table lists leftUpperArm" out_has '^  leftUpperArm: node [0-9]* "'
sinew info "$WORK/demo.glb" --json
check "demo json: humanoid from node names" json_expr \
    "d['humanoid']['source']=='node names' and d['humanoid']['naming']=='sinew demo' and 'leftUpperArm' in d['humanoid']['bones']"
check "demo json: toon materials" json_expr "'toon' in [m['shading'] for m in d['materials']] and d['vrm'] is None"
sinew info "$GLTF/joint_chain.gltf"
check "plain glTF: no name table fits" out_has_text 'humanoid (from node names): no name table recognises a bone'

if [ -n "${SINEW_ASSETS:-}" ] && [ -f "$SINEW_ASSETS/gltf/pab/arnaud_locomotion.glb" ]; then
    sinew info "$SINEW_ASSETS/gltf/pab/arnaud_locomotion.glb"
    check "arnaud: Mixamo names found" out_has '^humanoid (from node names, Mixamo table): 47 of 55 bones mapped'
    check "arnaud: hips is Pelvis" out_has_text '  hips: node 52 "Pelvis"'
else
    echo "skip: the Mixamo name check needs SINEW_ASSETS (gltf/pab/arnaud_locomotion.glb)"
fi

# ---- hostile names, big trees -------------------------------------------------------
"$PY" - "$WORK" <<'EOF'
import json, os, sys
work = sys.argv[1]
def write(name, nodes):
    g = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes}
    json.dump(g, open(os.path.join(work, name), "w"), separators=(",", ":"))
def chain(n, name=lambda i: "j%d" % i):
    return [dict({"name": name(i)}, **({"children": [i + 1]} if i + 1 < n else {})) for i in range(n)]
write("hostile.gltf", [{"name": "evil\nnode 9 \"fake\"\x1b[31m", "children": [1]}, {"name": "hips"}])
write("deep.gltf", chain(40))
write("long.gltf", chain(2500))
N = 100000
write("chain100k.gltf", chain(N, lambda i: "hips"))
write("fan100k.gltf", [{"name": "root", "children": list(range(1, N))}] + [{"name": "Hips"} for i in range(1, N)])
EOF
sinew info "$WORK/hostile.gltf"
check "hostile name: escaped on one line" out_has_text '  node 0 "evil\nnode 9 "fake"\e[31m"'
check "hostile name: no fake line" out_lacks '^node 9'
check "hostile name: no ESC byte" sh -c "! grep -q \"\$(printf '\\033')\" '$WORK/out'"
sinew info "$WORK/deep.gltf"
check "deep: indentation stops at 32 levels" out_has_text "$(printf '%66s' '')(depth 39) node 39 \"j39\""
check "deep: depth 32 still plain" out_has_text "$(printf '%66s' '')node 32 \"j32\""
sinew info "$WORK/long.gltf"
check "2,500 nodes: 2,000 tree lines, then how many more" sh -c \
    "[ \$(grep -c 'node [0-9]* \"j' '$WORK/out') -eq 2000 ] && grep -qxF '  ... 500 more nodes (--tree lists them all)' '$WORK/out'"
sinew info "$WORK/long.gltf" --tree
check "--tree: all 2,500" sh -c "[ \$(grep -c 'node [0-9]* \"j' '$WORK/out') -eq 2500 ] && ! grep -q 'more nodes' '$WORK/out'"
for f in chain100k fan100k; do
    if timeout 60 "$SINEW" info "$WORK/$f.gltf" --tree >"$WORK/big.txt" 2>"$WORK/err"; then big=0; else big=$?; fi
    check "$f: info --tree finishes within 60 s (exit $big)" [ "$big" -eq 0 ]
    check "$f: 100,000 tree lines" [ "$(grep -c 'node [0-9]* "' "$WORK/big.txt")" -eq 100000 ]
    check "$f: no name lookup past 10,000 nodes" grep -q '^humanoid (from node names): not looked for (100000 nodes' "$WORK/big.txt"
done
if timeout 60 "$SINEW" info "$WORK/chain100k.gltf" --json >"$WORK/big.json" 2>"$WORK/err"; then big=0; else big=$?; fi
check "chain100k: info --json finishes within 60 s (exit $big)" [ "$big" -eq 0 ]
check "chain100k: --json has every node" "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d['nodes'])==100000 and d['humanoid'] is None else 1)" "$WORK/big.json"
: >"$WORK/out"

finish
