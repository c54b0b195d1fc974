// A Unity script: a non-player character that finds its way through a voxel level with
// Wayfinder. Put Wayfinder.dll in Assets/Plugins and libwayfinder_c (.so, .dylib or .dll) in the
// platform's plugin folder, add a VoxelLevel to one object and a VoxelNpc to each character.
//
// The search is spread over frames (a stepped search with a time budget per frame), so that a
// long path never stalls a frame; then the character walks from block to block. Every array is
// reused, so a character that searches again allocates nothing.
using UnityEngine;
using Wayfinder;

/// <summary>The level's voxel world, loaded once and shared by every character.</summary>
public class VoxelLevel : MonoBehaviour
{
    [Tooltip("A MagicaVoxel .vox file or a MovingAI .3dmap file")]
    public string mapPath = "Levels/level.vox";

    /// <summary>The world the characters search; many queries may read it at once.</summary>
    public VoxelWorld World { get; private set; }

    void Awake()
    {
        World = mapPath.EndsWith(".3dmap") ? VoxelWorld.Load3dMap(mapPath) : VoxelWorld.LoadVox(mapPath);
        Debug.Log(string.Format("{0}: {1} x {2} x {3} blocks", mapPath, World.SizeX, World.SizeY, World.SizeZ));
    }

    void OnDestroy()
    {
        // The characters' queries keep the world alive until they are disposed too.
        if (World != null) World.Dispose();
    }
}

/// <summary>A character that walks (or flies) to a goal block.</summary>
public class VoxelNpc : MonoBehaviour
{
    public VoxelLevel level;
    public Vector3Int goal;
    [Tooltip("Blocks per second")]
    public float speed = 4f;
    [Tooltip("A one-block flyer instead of a person-sized walker")]
    public bool flying;
    [Tooltip("Search time per frame, in milliseconds")]
    public float searchBudgetMilliseconds = 1f;

    private VoxelQuery query;
    private VoxelPosition[] path = new VoxelPosition[64];
    private int pathLength;
    private int nextBlock;
    private bool searching;

    /// <summary>Whether the character stands on its goal.</summary>
    public bool Arrived { get; private set; }

    void Start()
    {
        query = new VoxelQuery(level.World, flying ? MovementProfile.Flyer() : MovementProfile.Walker());
        FindWayTo(goal);
    }

    /// <summary>Starts a search from where the character stands; Update continues it.</summary>
    public void FindWayTo(Vector3Int target)
    {
        goal = target;
        Vector3 p = transform.position;
        var from = new VoxelPosition(Mathf.RoundToInt(p.x), Mathf.RoundToInt(p.y), Mathf.RoundToInt(p.z));
        SearchStatus status = query.Begin(from, new VoxelPosition(target.x, target.y, target.z));
        searching = true;
        Arrived = false;
        Continue(status);
    }

    void Update()
    {
        if (searching)
        {
            Continue(query.Step(QueryLimits.UnlimitedExpansions, searchBudgetMilliseconds));
            return;
        }
        if (Arrived || nextBlock >= pathLength) return;
        VoxelPosition block = path[nextBlock];
        var target = new Vector3(block.X, block.Y, block.Z);
        transform.position = Vector3.MoveTowards(transform.position, target, speed * Time.deltaTime);
        if (Vector3.Distance(transform.position, target) < 1e-3f && ++nextBlock == pathLength)
        {
            Arrived = true;
            Debug.Log(name + " arrived at " + goal);
        }
    }

    private void Continue(SearchStatus status)
    {
        if (status == SearchStatus.InProgress) return;
        searching = false;
        PathResult result = query.GetResult();
        if (!result.Found)
        {
            Debug.LogWarning(name + ": no way to " + goal + " (" + result.Status + ") " + query.Message);
            pathLength = 0;
            return;
        }
        pathLength = query.GetPathBlocks(ref path);
        nextBlock = 1;
        Debug.Log(name + ": " + pathLength + " blocks to " + goal + ", cost " + result.Cost.ToString("F2"));
    }

    void OnDestroy()
    {
        if (query != null) query.Dispose();
    }
}
